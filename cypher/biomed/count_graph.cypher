// purpose: Count biomedical entities and the edges between them.
// mode: read
// returns: nodes, edges
MATCH (n:BioEntity)
WITH count(n) AS nodes
CALL () {
  MATCH (:BioEntity)-[r]->(:BioEntity)
  RETURN count(r) AS edges
}
RETURN nodes, edges
