// purpose: Full legal retrieval in one round trip: seed candidates (dense from the vector index, or exact cosine over the filtered units; lexical from the full-text index over segmented text), filtered by document and as-of date before fusion, fused by per-query min-max linear fusion or reciprocal rank fusion; re-ranked with the question's own document, article and unit mentions (a unit named with its document is a candidate even when neither index found it), passages the question quotes (a unit whose text holds one is a candidate too, the most specific first), heading phrases (a clause or point: the heading of its article), the question's phrases that the candidate's article text repeats and, for a definitional question, the defining unit; the top k traced to the wording in force, with one hop of references and provenance.
// mode: read
// param vector: list<float> -- query embedding (E5 query side)
// param query: string -- Lucene query over text_segmented (segmented, special characters escaped); ignored when use_sparse is false
// param use_sparse: boolean -- run the full-text branch (false when the query has no searchable term)
// param candidates: int -- candidates kept per branch and after fusion
// param dense_pool: int -- vector-index hits read before filtering and article aggregation (>= candidates)
// param sparse_pool: int -- full-text hits read before filtering (>= candidates)
// param has_filter: boolean -- any document filter is set (dense side then scans the filtered units exactly)
// param doc_ids: list<string> -- document ids to keep ([''] : all)
// param doc_types: list<string> -- lower-cased document types to keep ([''] : all)
// param issuers: list<string> -- lower-cased issuers to keep ([''] : all)
// param as_of: date -- units not yet issued or in force at this date are not candidates
// param fusion: string -- 'linear' or 'rrf'
// param lam: float -- weight of the dense score in linear fusion
// param rrf_k: int -- reciprocal rank fusion constant
// param to_article: boolean -- score each hit as its containing Article (best chunk per article)
// param k: int -- seeds kept after the re-rank and traced
// param q_fold: string -- the question folded (NFC, lower case, single spaces)
// param doc_numbers: list<string> -- document numbers the question names, folded ([''] : none)
// param q_years: list<string> -- four-digit years the question writes ([''] : none): a document named by its title followed by another year than its own is not named
// param articles: list<string> -- article numbers the question names, lower case ([''] : none)
// param unit_paths: list<string> -- unit paths the question names with a document ('D5', 'D5.K2', 'D5.K2.a'; [''] : none or no re-rank): those units of the named documents are candidates whatever the search found
// param w_unit: float -- re-rank bonus when the question names the candidate's document and its exact unit path (0: no re-rank)
// param quotes: list<string> -- passages the question quotes, folded (a text is compared in lower case, line breaks and tabs as spaces) ([''] : none or no re-rank): units whose text holds one are candidates whatever the searches found
// param quote_query: string -- Lucene query over the quoted passages' segmented words (lower case and capitalised; '' : no quote)
// param quote_pool: int -- full-text hits of the quoted words read before the passage test
// param quoted_max: int -- most units the quote branch adds (those whose text the quote fills most)
// param w_quote: float -- re-rank bonus times (1 + the share of the candidate's text the quote fills) / 2, when the candidate's text holds a quoted passage (0: none)
// param q_grams: list<string> -- the folded question's syllables and syllable bigrams ("a b")
// param w_doc: float -- re-rank bonus when the question names the candidate's document (0: no re-rank)
// param w_article: float -- re-rank bonus when it also names the candidate's article number
// param w_heading: float -- re-rank bonus times the share of the heading's bigrams the question repeats
// param q_subject: string -- the term a definitional question is about, folded ('' when none)
// param p_grams: list<string> -- syllable bigrams of what the question says the term is ([''] : nothing said)
// param w_definition: float -- re-rank bonus when the candidate (or a clause of it) DEFINES q_subject (0: none)
// param q_body: list<string> -- the folded question's syllable bigrams but those of two stopwords ([''] : none)
// param w_body: float -- re-rank bonus times the share of q_body that the text of the candidate's article (or its own, outside an article; none for a part, chapter or section) repeats (0: none)
// param definition_floor: float -- share of w_definition for naming the term; the rest scales with the share of p_grams the definition repeats
// param max_depth: int -- longest change chain followed (at most 10); longer chains are reported as cut
// param max_refs: int -- most REFERS_TO targets per seed or successor
// returns: candidates, seeds, units
// rows: plain
// List parameters are never empty ([''] stands for none): the server caches one plan per query
// text and parameter types, the type of an empty list is not a list of strings, and planning this
// query takes 1.5-2.5 s on 2 cores, so every shape of question must reuse the same plan.
CALL () {
  CALL () {
    WITH 1 AS one WHERE NOT $has_filter
    CALL db.index.vector.queryNodes('legalunit_embedding_vector', $dense_pool, $vector)
      YIELD node, score
    RETURN node, score
    UNION ALL
    WITH 1 AS one WHERE $has_filter
    MATCH (fd:Document)
    WHERE ($doc_ids = [''] OR fd.id IN $doc_ids)
      AND ($doc_types = [''] OR toLower(fd.doc_type) IN $doc_types)
      AND ($issuers = [''] OR toLower(fd.issuer) IN $issuers)
    MATCH (node:LegalUnit {doc_id: fd.id})
    USING INDEX node:LegalUnit(doc_id)
    WHERE node.embedding IS NOT NULL
    RETURN node, vector.similarity.cosine(node.embedding, $vector) AS score
  }
  // include: _pool_filter
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
  // include: _pool_filter
  WITH node, score ORDER BY score DESC, node.id LIMIT $candidates
  RETURN collect({id: node.id, score: score}) AS sparse
}
// Units the question names with their document ("khoản 2 Điều 5 Nghị định 12/2016/NĐ-CP", or
// the document's title without its year): candidates whatever the indexes found, under the same
// date and filter rules; a question that names a provision asks about that provision.
CALL () {
  WITH 1 AS one WHERE $unit_paths <> ['']
  MATCH (d:Document)
  WITH d, apoc.text.join([w IN apoc.text.split(toLower(coalesce(d.number, '')), '(?U)\\s+') WHERE w <> ''], ' ') AS number,
    apoc.text.replace(
      apoc.text.join([w IN apoc.text.split(toLower(coalesce(d.title, '')), '(?U)\\s+') WHERE w <> ''], ' '),
      ' (?:năm )?[0-9]{4}$', '') AS title_key
  WITH d, number, title_key,
    CASE WHEN d.issue_date IS NULL THEN '' ELSE toString(d.issue_date.year) END AS issued,
    coalesce(split(number, '/')[1], '') AS numbered
  WHERE (number <> '' AND number IN $doc_numbers) OR (size(title_key) >= 8 AND $q_fold CONTAINS title_key
    AND NOT any(y IN $q_years WHERE y <> '' AND y <> issued AND y <> numbered
      AND ($q_fold CONTAINS (title_key + ' ' + y) OR $q_fold CONTAINS (title_key + ' năm ' + y))))
  UNWIND $unit_paths AS path
  MATCH (node:LegalNode {id: d.id + ':' + path}) WHERE node:LegalUnit
    AND CASE WHEN coalesce(node.valid_from_unknown, false) AND node.valid_from IS NULL
      THEN node.not_before IS NOT NULL AND node.not_before <= $as_of
      ELSE node.valid_from IS NULL OR node.valid_from <= $as_of END
    AND (d.issue_date IS NULL OR d.issue_date <= $as_of)
    AND (NOT $has_filter OR (($doc_ids = [''] OR d.id IN $doc_ids)
      AND ($doc_types = [''] OR toLower(d.doc_type) IN $doc_types)
      AND ($issuers = [''] OR toLower(d.issuer) IN $issuers)))
  WITH DISTINCT node
  RETURN collect({id: node.id, score: 1.0}) AS named
}
// Units whose text holds a passage the question quotes ("nội dung “…” được quy định thế nào?"):
// the full-text hits of the quoted words, kept when their text holds the passage itself, the
// most specific first (the point before the clause and the article that hold it too), under the
// same date and filter rules; candidates whatever the two searches found.
CALL () {
  CALL () {
    WITH 1 AS one WHERE $quote_query <> ''
    CALL db.index.fulltext.queryNodes('legalunit_text_segmented_fulltext', $quote_query, {limit: $quote_pool})
      YIELD node
    RETURN node
  }
  OPTIONAL MATCH (d:LegalNode {id: node.doc_id}) WHERE d:Document
  WITH node, d
  WHERE CASE WHEN coalesce(node.valid_from_unknown, false) AND node.valid_from IS NULL
      THEN node.not_before IS NOT NULL AND node.not_before <= $as_of
      ELSE node.valid_from IS NULL OR node.valid_from <= $as_of END
    AND (d IS NULL OR d.issue_date IS NULL OR d.issue_date <= $as_of)
    AND (NOT $has_filter OR (d IS NOT NULL
      AND ($doc_ids = [''] OR d.id IN $doc_ids)
      AND ($doc_types = [''] OR toLower(d.doc_type) IN $doc_types)
      AND ($issuers = [''] OR toLower(d.issuer) IN $issuers)))
  WITH node, replace(replace(toLower(coalesce(node.text, '')), '\n', ' '), '\t', ' ') AS folded
  WITH node, [qt IN $quotes WHERE folded CONTAINS qt | toFloat(size(qt)) / size(folded)] AS fills
  WHERE size(fills) > 0
  WITH node, apoc.coll.max(fills) AS fill ORDER BY fill DESC, node.id LIMIT $quoted_max
  RETURN collect({id: node.id, score: fill}) AS quoted
}
WITH dense, sparse, named + quoted AS named,
  CASE WHEN size(dense) > 0 THEN dense[0].score END AS dmax,
  CASE WHEN size(dense) > 0 THEN dense[size(dense) - 1].score END AS dmin,
  CASE WHEN size(sparse) > 0 THEN sparse[0].score END AS smax,
  CASE WHEN size(sparse) > 0 THEN sparse[size(sparse) - 1].score END AS smin
WITH
  [i IN range(0, size(dense) - 1) | {id: dense[i].id, kind: 'dense', rank: i + 1, raw: dense[i].score,
    norm: CASE WHEN dmax = dmin THEN 1.0 ELSE (dense[i].score - dmin) / (dmax - dmin) END}]
  + [i IN range(0, size(sparse) - 1) | {id: sparse[i].id, kind: 'sparse', rank: i + 1, raw: sparse[i].score,
    norm: CASE WHEN smax = smin THEN 1.0 ELSE (sparse[i].score - smin) / (smax - smin) END}]
  + [n IN named | {id: n.id, kind: 'named', rank: 0, raw: 1.0, norm: 0.0}] AS entries
UNWIND entries AS e
WITH e.id AS id,
  max(CASE WHEN e.kind = 'dense' THEN e.raw END) AS dense,
  max(CASE WHEN e.kind = 'sparse' THEN e.raw END) AS sparse,
  sum(CASE WHEN e.kind = 'dense' THEN e.norm ELSE 0.0 END) AS dense_norm,
  sum(CASE WHEN e.kind = 'sparse' THEN e.norm ELSE 0.0 END) AS sparse_norm,
  max(CASE WHEN e.kind = 'dense' THEN e.rank END) AS dense_rank,
  max(CASE WHEN e.kind = 'sparse' THEN e.rank END) AS sparse_rank,
  sum(CASE WHEN e.kind = 'named' THEN 0.0 ELSE 1.0 / ($rrf_k + e.rank) END) AS rrf,
  max(CASE WHEN e.kind = 'named' THEN 1 ELSE 0 END) AS named
WITH id, dense, sparse, dense_norm, sparse_norm, dense_rank, sparse_rank, named,
  CASE $fusion WHEN 'rrf' THEN rrf ELSE $lam * dense_norm + (1.0 - $lam) * sparse_norm END AS fused
ORDER BY named DESC, fused DESC, id
LIMIT $candidates
MATCH (u:LegalNode {id: id}) WHERE u:LegalUnit
OPTIONAL MATCH (d:LegalNode {id: u.doc_id}) WHERE d:Document
// A clause or point has no heading of its own: it stands under the heading of its article and
// scores by that one (else the article would outrank its own clause on the heading alone). Its
// article is also the scope of its body phrases, below (scope: the article, or the unit itself;
// none for a part, chapter or section, whose text is that of all its articles together).
CALL (u) {
  OPTIONAL MATCH (a:Article)-[:CONTAINS*1..3]->(u) WHERE NOT u:Article
  WITH collect(a) AS above
  RETURN coalesce(u.heading, head(above).heading, '') AS heading,
    CASE WHEN u:Part OR u:Chapter OR u:Section OR u:Subsection THEN null
      ELSE coalesce(head(above), u) END AS scope
}
// Re-rank: the question's own mentions of the candidate's document (number, or title without
// its year, unless the question gives the title another year: "Luật Nhà ở 2023" is not the
// Luật Nhà ở of 2014) and article, and how much of the unit's heading the question repeats as a
// phrase (share of the heading's syllable bigrams; a one-syllable heading: the syllable). Names and
// headings are folded as the question is: lower case, runs of whitespace as one space.
WITH id, u, scope, dense, sparse, dense_norm, sparse_norm, fused, heading,
  CASE WHEN $quotes = [''] THEN ''
    ELSE replace(replace(toLower(coalesce(u.text, '')), '\n', ' '), '\t', ' ') END AS ftext,
  apoc.text.join([w IN apoc.text.split(toLower(coalesce(d.number, '')), '(?U)\\s+') WHERE w <> ''], ' ') AS number,
  apoc.text.replace(
    apoc.text.join([w IN apoc.text.split(toLower(coalesce(d.title, '')), '(?U)\\s+') WHERE w <> ''], ' '),
    ' (?:năm )?[0-9]{4}$', '') AS title_key,
  CASE WHEN d.issue_date IS NULL THEN '' ELSE toString(d.issue_date.year) END AS issued,
  [w IN apoc.text.split(toLower(heading), '[^\\p{L}\\p{N}_]+') WHERE w <> ''] AS syl
// A quoted passage the candidate's text holds: the share of that text it fills (null: none).
WITH id, u, scope, dense, sparse, dense_norm, sparse_norm, fused,
  CASE WHEN ftext = '' THEN null
    ELSE apoc.coll.max([qt IN $quotes WHERE ftext CONTAINS qt | toFloat(size(qt)) / size(ftext)]) END AS quote,
  CASE WHEN number <> '' AND number IN $doc_numbers THEN 1.0
    WHEN size(title_key) >= 8 AND $q_fold CONTAINS title_key
      AND NOT any(y IN $q_years WHERE y <> '' AND y <> issued AND y <> coalesce(split(number, '/')[1], '')
        AND ($q_fold CONTAINS (title_key + ' ' + y) OR $q_fold CONTAINS (title_key + ' năm ' + y)))
      THEN 1.0
    ELSE 0.0 END AS doc_hit,
  apoc.coll.toSet(CASE WHEN size(syl) = 1 THEN syl
    ELSE [i IN range(0, size(syl) - 2) | syl[i] + ' ' + syl[i + 1]] END) AS grams
WITH id, u, scope, dense, sparse, dense_norm, sparse_norm, fused, doc_hit, quote,
  CASE WHEN doc_hit = 1.0 AND id CONTAINS ':D'
    AND toLower(split(last(split(id, ':D')), '.')[0]) IN $articles THEN 1.0 ELSE 0.0 END AS art_hit,
  CASE WHEN doc_hit = 1.0 AND last(split(id, ':')) IN $unit_paths THEN 1.0 ELSE 0.0 END AS unit_hit,
  CASE WHEN size(grams) = 0 THEN 0.0
    ELSE toFloat(size([g IN grams WHERE g IN $q_grams])) / size(grams) END AS overlap
// A definitional question about a term the candidate (or one of its clauses) DEFINES: how much
// of what the question says the term is the definition repeats (null: defines no such term).
CALL (u) {
  WITH u WHERE $w_definition > 0
  MATCH (u)-[:CONTAINS*0..2]->(:LegalUnit)-[r:DEFINES]->(t:DefinedTerm {key: $q_subject})
  WITH [w IN apoc.text.split(toLower(coalesce(r.definition, '')), '[^\\p{L}\\p{N}_]+') WHERE w <> ''] AS syl
  WITH apoc.coll.toSet(CASE WHEN size(syl) = 1 THEN syl
    ELSE [i IN range(0, size(syl) - 2) | syl[i] + ' ' + syl[i + 1]] END) AS grams
  RETURN max(CASE WHEN $p_grams = [''] THEN 0.0
    ELSE toFloat(size([g IN $p_grams WHERE g IN grams])) / size($p_grams) END) AS definition
}
// Phrases the other way round: the share of the question's bigrams ($q_body) that the text of the
// candidate's article repeats, folded as the question is (null: no re-rank, no bigram to look
// for, or a part, chapter or section). A clause or point scores by its article's text, as it
// does by its article's heading: an article's text holds its clauses', so on its own text the
// article would outrank each clause.
CALL (scope) {
  WITH scope WHERE scope IS NOT NULL AND $w_body > 0 AND $q_body <> ['']
  // The text as its syllables between single spaces: a bigram with a space on either side
  // occurs in it exactly when its two syllables follow each other in the text (cheaper than
  // listing the text's bigrams).
  WITH ' ' + apoc.text.replace(toLower(coalesce(scope.text, '')), '[^\\p{L}\\p{N}_]+', ' ') + ' ' AS spaced
  RETURN max(toFloat(size([g IN $q_body WHERE spaced CONTAINS ' ' + g + ' '])) / size($q_body)) AS body
}
WITH id, u, dense, sparse, dense_norm, sparse_norm, fused, overlap, definition, body, quote,
  fused + ($w_doc * doc_hit + $w_article * art_hit + $w_unit * unit_hit + $w_heading * overlap
    + $w_body * coalesce(body, 0.0))
    + CASE WHEN quote IS NULL THEN 0.0 ELSE $w_quote * (1.0 + quote) / 2.0 END
    + CASE WHEN definition IS NULL THEN 0.0
      ELSE $w_definition * ($definition_floor + (1.0 - $definition_floor) * definition) END AS score
ORDER BY score DESC, id
WITH collect({id: id, doc_id: u.doc_id, dense: dense, sparse: sparse, dense_norm: dense_norm,
  sparse_norm: sparse_norm, fused: fused, heading: overlap, body: body, definition: definition,
  quote: quote, rerank: score}) AS ranked
WITH ranked[..$k] AS chosen
WITH chosen, [c IN chosen | c.id] AS seed_ids
CALL (seed_ids) {
  // include: _trace_seeds
}
RETURN chosen AS candidates, seeds, units
