// purpose: Count every node and every relationship in the database (from the count store), for what an operator command removed.
// mode: read
// returns: nodes, relationships
CALL () { MATCH (n) RETURN count(n) AS nodes }
CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships }
RETURN nodes, relationships
