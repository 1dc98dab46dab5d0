// purpose: The amendment edges (AMENDS, SUPPLEMENTS, REPEALS, REPLACES) from units of one document to units of another, as the graph holds them (the amendment benchmark reads them back). A phrase edit (an AMENDS edge with edits) that changed wording is returned as the units it changed: the units under the edge's target with a phrase version by the source document whose own words (text less sub-units) hold an edited phrase, as quoted or with a capital first letter, or the unit named by a text added at its end (method phrase_applied); one whose phrase was found nowhere keeps its named target. A SUPPLEMENTS edge names the unit the inserted one went into (container: an article inserted into a Mục or Chương names it).
// mode: read
// param source_doc: string -- id of the amending document
// param target_doc: string -- id of the amended document
// returns: type, source, target, path, method, effective_date, container
MATCH (s:LegalNode {doc_id: $source_doc})-[r:AMENDS|SUPPLEMENTS|REPEALS|REPLACES]->(t:LegalNode {doc_id: $target_doc})
WHERE r.edits IS NULL OR coalesce(r.applied, 0) = 0
OPTIONAL MATCH (holder:LegalUnit)-[:CONTAINS]->(t) WHERE type(r) = 'SUPPLEMENTS'
  AND holder.doc_id = $target_doc AND NOT holder:UnitVersion
RETURN type(r) AS type, s.id AS source, t.id AS target,
  substring(t.id, size($target_doc) + 1) AS path, r.method AS method,
  r.effective_date AS effective_date, substring(holder.id, size($target_doc) + 1) AS container
UNION
MATCH (s:LegalNode {doc_id: $source_doc})-[r:AMENDS]->(t:LegalNode)
WHERE (t.doc_id = $target_doc OR t.id = $target_doc) AND r.edits IS NOT NULL AND r.applied > 0
MATCH (v:UnitVersion {doc_id: $target_doc, derived: 'phrase', amended_by: $source_doc})-[:VERSION_OF]->(u:LegalUnit)
WHERE (t.id = $target_doc OR u.id = t.id OR u.id STARTS WITH t.id + '.')
// the unit's own words (its text less its sub-units' texts) hold an edited phrase, as quoted or
// with its first letter in upper case; a text added at the end ('\uE002') changed the unit named
WITH s, r, t, u, v, reduce(own = coalesce(u.text, ''),
    c IN COLLECT { MATCH (u)-[:CONTAINS]->(c:LegalUnit) WHERE c.text IS NOT NULL RETURN c.text }
    | replace(own, c, '')) AS own
WHERE (r.edits[0] = '\uE002' AND u.id = t.id)
  OR any(k IN range(0, size(r.edits) / 2 - 1) WHERE r.edits[2 * k] <> ''
    AND r.edits[2 * k] <> '\uE002' AND (own CONTAINS trim(r.edits[2 * k])
      OR own CONTAINS toUpper(left(trim(r.edits[2 * k]), 1)) + substring(trim(r.edits[2 * k]), 1)))
RETURN DISTINCT 'AMENDS' AS type, s.id AS source, u.id AS target,
  substring(u.id, size($target_doc) + 1) AS path, 'phrase_applied' AS method,
  v.valid_from AS effective_date, null AS container
ORDER BY target, type, method
