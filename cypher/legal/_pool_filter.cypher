// A seed branch's hits (node, score) kept under the date and document filters, then, at article
// granularity, each scored as its containing Article (best hit per article). Each hit's document
// is read once per document, not once per hit: a pool of 50 hits comes from a few documents.
WITH collect({node: node, score: score}) AS hits
CALL (hits) {
  UNWIND apoc.coll.toSet([h IN hits WHERE h.node.doc_id IS NOT NULL | h.node.doc_id]) AS did
  OPTIONAL MATCH (d:LegalNode {id: did}) WHERE d:Document
  RETURN apoc.map.fromPairs(collect([did,
    (d IS NULL OR d.issue_date IS NULL OR d.issue_date <= $as_of)
    AND (NOT $has_filter OR (d IS NOT NULL
      AND ($doc_ids = [''] OR d.id IN $doc_ids)
      AND ($doc_types = [''] OR toLower(d.doc_type) IN $doc_types)
      AND ($issuers = [''] OR toLower(d.issuer) IN $issuers)))])) AS doc_ok
}
UNWIND hits AS hit
WITH hit.node AS node, hit.score AS score, doc_ok
// A unit whose start is unknown is no candidate before its amending document's issue date.
WHERE CASE WHEN coalesce(node.valid_from_unknown, false) AND node.valid_from IS NULL
    THEN node.not_before IS NOT NULL AND node.not_before <= $as_of
    ELSE node.valid_from IS NULL OR node.valid_from <= $as_of END
  AND CASE WHEN node.doc_id IS NULL THEN NOT $has_filter ELSE doc_ok[node.doc_id] END
OPTIONAL CALL (node) {
  WITH node WHERE $to_article
  MATCH (art:Article)-[:CONTAINS*1..3]->(node)
  RETURN art LIMIT 1
}
WITH coalesce(art, node) AS node, max(score) AS score
