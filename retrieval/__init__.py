"""The Python query API: thin typed functions over the queries in ``cypher/``."""
