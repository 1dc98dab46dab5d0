"""Parsers and batched writers: legal documents, PrimeKG triplets, sentence graphs."""
