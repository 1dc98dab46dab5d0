// purpose: Every legal node and edge with labels and properties (embeddings left out), for order-independence and idempotence checks.
// mode: read
// returns: nodes, edges
CALL () {
  MATCH (n) WHERE n:LegalNode OR n:UnresolvedReference
  WITH n ORDER BY n.id
  RETURN collect({id: n.id, labels: apoc.coll.sort(labels(n)),
    props: apoc.map.removeKey(properties(n), 'embedding')}) AS nodes
}
CALL () {
  MATCH (a)-[r]->(b) WHERE (a:LegalNode OR a:UnresolvedReference) AND (b:LegalNode OR b:UnresolvedReference)
  WITH a, r, b ORDER BY a.id, type(r), b.id, r.method, r.origin
  RETURN collect({source: a.id, type: type(r), target: b.id, props: properties(r)}) AS edges
}
RETURN nodes, edges
