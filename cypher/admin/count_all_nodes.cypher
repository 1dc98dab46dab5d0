// purpose: Count every node in the database (one number, from the count store), e.g. to check that a database is empty before a bulk import replaces it.
// mode: read
// returns: nodes
MATCH (n)
RETURN count(n) AS nodes
