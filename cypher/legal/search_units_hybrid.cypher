// purpose: Seed candidates for legal retrieval: dense (vector index, or exact cosine over the filtered units) and lexical (full-text over segmented text) candidates, filtered by document and as-of date before fusion, fused by per-query min-max linear fusion or reciprocal rank fusion.
// mode: read
// param vector: list<float> -- query embedding (E5 query side)
// param query: string -- Lucene query over text_segmented (segmented, special characters escaped); ignored when use_sparse is false
// param use_sparse: boolean -- run the full-text branch (false when the query has no searchable term)
// param candidates: int -- candidates kept per branch and after fusion
// param dense_pool: int -- vector-index hits read before filtering and article aggregation (>= candidates)
// param sparse_pool: int -- full-text hits read before filtering (>= candidates)
// param has_filter: boolean -- any document filter is set (dense side then scans the filtered units exactly)
// param doc_ids: list<string> -- document ids to keep (empty: all)
// param doc_types: list<string> -- lower-cased document types to keep (empty: all)
// param issuers: list<string> -- lower-cased issuers to keep (empty: all)
// param as_of: date -- units not yet issued or in force at this date are not candidates
// param fusion: string -- 'linear' or 'rrf'
// param lam: float -- weight of the dense score in linear fusion
// param rrf_k: int -- reciprocal rank fusion constant
// param to_article: boolean -- score each hit as its containing Article (best chunk per article)
// returns: id, doc_id, level, heading, citation, doc_title, doc_number, doc_type, dense, sparse, dense_norm, sparse_norm, dense_rank, sparse_rank, fused
// rows: plain
CALL () {
  CALL () {
    WITH 1 AS one WHERE NOT $has_filter
    CALL db.index.vector.queryNodes('legalunit_embedding_vector', $dense_pool, $vector)
      YIELD node, score
    RETURN node, score
    UNION ALL
    WITH 1 AS one WHERE $has_filter
    MATCH (fd:Document)
    WHERE (size($doc_ids) = 0 OR fd.id IN $doc_ids)
      AND (size($doc_types) = 0 OR toLower(fd.doc_type) IN $doc_types)
      AND (size($issuers) = 0 OR toLower(fd.issuer) IN $issuers)
    MATCH (node:LegalUnit {doc_id: fd.id})
    USING INDEX node:LegalUnit(doc_id)
    WHERE node.embedding IS NOT NULL
    RETURN node, vector.similarity.cosine(node.embedding, $vector) AS score
  }
  OPTIONAL MATCH (d:LegalNode {id: node.doc_id}) WHERE d:Document
  WITH node, score, d
  WHERE (node.valid_from IS NULL OR node.valid_from <= $as_of)
    AND (d IS NULL OR d.issue_date IS NULL OR d.issue_date <= $as_of)
    AND (NOT $has_filter OR (d IS NOT NULL
      AND (size($doc_ids) = 0 OR d.id IN $doc_ids)
      AND (size($doc_types) = 0 OR toLower(d.doc_type) IN $doc_types)
      AND (size($issuers) = 0 OR toLower(d.issuer) IN $issuers)))
  OPTIONAL MATCH (art:Article)-[:CONTAINS*1..3]->(node) WHERE $to_article
  WITH coalesce(art, node) AS node, max(score) AS score
  WITH node, score ORDER BY score DESC, node.id LIMIT $candidates
  RETURN collect({id: node.id, score: score}) AS dense
}
CALL () {
  CALL () {
    WITH 1 AS one WHERE $use_sparse
    CALL db.index.fulltext.queryNodes('legalunit_text_segmented_fulltext', $query, {limit: $sparse_pool})
      YIELD node, score
    RETURN node, score
  }
  OPTIONAL MATCH (d:LegalNode {id: node.doc_id}) WHERE d:Document
  WITH node, score, d
  WHERE (node.valid_from IS NULL OR node.valid_from <= $as_of)
    AND (d IS NULL OR d.issue_date IS NULL OR d.issue_date <= $as_of)
    AND (NOT $has_filter OR (d IS NOT NULL
      AND (size($doc_ids) = 0 OR d.id IN $doc_ids)
      AND (size($doc_types) = 0 OR toLower(d.doc_type) IN $doc_types)
      AND (size($issuers) = 0 OR toLower(d.issuer) IN $issuers)))
  OPTIONAL MATCH (art:Article)-[:CONTAINS*1..3]->(node) WHERE $to_article
  WITH coalesce(art, node) AS node, max(score) AS score
  WITH node, score ORDER BY score DESC, node.id LIMIT $candidates
  RETURN collect({id: node.id, score: score}) AS sparse
}
WITH dense, sparse,
  CASE WHEN size(dense) > 0 THEN dense[0].score END AS dmax,
  CASE WHEN size(dense) > 0 THEN dense[size(dense) - 1].score END AS dmin,
  CASE WHEN size(sparse) > 0 THEN sparse[0].score END AS smax,
  CASE WHEN size(sparse) > 0 THEN sparse[size(sparse) - 1].score END AS smin
WITH
  [i IN range(0, size(dense) - 1) | {id: dense[i].id, kind: 'dense', rank: i + 1, raw: dense[i].score,
    norm: CASE WHEN dmax = dmin THEN 1.0 ELSE (dense[i].score - dmin) / (dmax - dmin) END}]
  + [i IN range(0, size(sparse) - 1) | {id: sparse[i].id, kind: 'sparse', rank: i + 1, raw: sparse[i].score,
    norm: CASE WHEN smax = smin THEN 1.0 ELSE (sparse[i].score - smin) / (smax - smin) END}] AS entries
UNWIND entries AS e
WITH e.id AS id,
  max(CASE WHEN e.kind = 'dense' THEN e.raw END) AS dense,
  max(CASE WHEN e.kind = 'sparse' THEN e.raw END) AS sparse,
  sum(CASE WHEN e.kind = 'dense' THEN e.norm ELSE 0.0 END) AS dense_norm,
  sum(CASE WHEN e.kind = 'sparse' THEN e.norm ELSE 0.0 END) AS sparse_norm,
  max(CASE WHEN e.kind = 'dense' THEN e.rank END) AS dense_rank,
  max(CASE WHEN e.kind = 'sparse' THEN e.rank END) AS sparse_rank,
  sum(1.0 / ($rrf_k + e.rank)) AS rrf
WITH id, dense, sparse, dense_norm, sparse_norm, dense_rank, sparse_rank,
  CASE $fusion WHEN 'rrf' THEN rrf ELSE $lam * dense_norm + (1.0 - $lam) * sparse_norm END AS fused
ORDER BY fused DESC, id
LIMIT $candidates
MATCH (u:LegalNode {id: id}) WHERE u:LegalUnit
OPTIONAL MATCH (d:LegalNode {id: u.doc_id}) WHERE d:Document
RETURN id, u.doc_id AS doc_id, u.level AS level, u.heading AS heading, u.citation AS citation,
  d.title AS doc_title, d.number AS doc_number, d.doc_type AS doc_type,
  dense, sparse, dense_norm, sparse_norm, dense_rank, sparse_rank, fused
ORDER BY fused DESC, id
