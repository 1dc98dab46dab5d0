// purpose: Counts of the sentence graph's nodes and edges by label / type and method (for load reports and tests).
// mode: read
// returns: kind, name, method, count
CALL () {
  MATCH (n:SentenceNode)
  UNWIND labels(n) AS label
  WITH label WHERE label <> 'SentenceNode' AND label <> 'Sentence'
  RETURN 'node' AS kind, label AS name, '' AS method, count(*) AS count
  UNION ALL
  MATCH (:SentenceNode)-[r]->(:SentenceNode)
  RETURN 'edge' AS kind, type(r) AS name, coalesce(r.method, '') AS method, count(*) AS count
}
RETURN kind, name, method, count
ORDER BY kind, name, method
