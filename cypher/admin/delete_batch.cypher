// purpose: Delete up to $batch nodes with their relationships (hopgraph db clear repeats it until nothing is left, so no transaction grows with the graph).
// mode: write
// param batch: int -- nodes deleted in this transaction
// returns: deleted
MATCH (n)
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
