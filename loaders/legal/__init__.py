"""loaders/legal."""
