// purpose: Write the whole wording of a version that gives a unit a new name or new opening words only (scope title/lead/head, from scope_text and the wording it changes), then apply phrase edits (AMENDS edges carrying edits [old, new, ...]: a phrase replaced, removed or added, in a unit and its sub-units or in every unit of a document) to the wording: each unit whose wording an edit changes gets a UnitVersion (derived 'phrase', scope 'phrase', id <unit>@<amending document>) whose text is the latest wording written in full that had started by the edit's date, with every phrase edit since then applied in date order (base_from: the start of that wording, null for the unit's own text). Versions derived before are taken out first, so the result depends only on the graph; each edit records how many units it changed (applied), 0 when its phrase was found nowhere. A place of a listed phrase repeal that nowhere holds the phrase gets a REPEALS edge (method listed_unit_repeal).
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: count
CALL () {
  MATCH (old:UnitVersion) WHERE old.derived = 'phrase'
    AND ($doc_ids IS NULL OR old.doc_id IN $doc_ids)
  DETACH DELETE old
}
// A new name or new opening words only (scope 'title', 'lead' or 'head': both; scope_text as
// written): the version's text is the whole wording, the one it changes (the latest written in
// full that had started by then, else the unit's own text) with that part replaced, the sub-units
// kept. An article's name is its first line ('Điều 5.' alone: the next line too); the opening
// words run to the first line that starts a clause (of an article) or a point (of a clause).
CALL () {
  MATCH (v:UnitVersion)-[:VERSION_OF]->(u:LegalUnit)
  WHERE v.scope IN ['title', 'lead', 'head'] AND v.scope_text IS NOT NULL
    AND ($doc_ids IS NULL OR v.doc_id IN $doc_ids)
  CALL (v, u) {
    OPTIONAL MATCH (b:UnitVersion)-[:VERSION_OF]->(u)
    WHERE b <> v AND b.derived IS NULL AND b.scope IS NULL
      AND coalesce(b.valid_from, b.not_before) <= coalesce(v.valid_from, v.not_before)
    WITH b ORDER BY coalesce(b.valid_from, b.not_before) DESC, b.id DESC
    LIMIT 1
    RETURN b
  }
  WITH v, u, split(coalesce(b.text, u.text, ''), '\n') AS lines,
    CASE u.level WHEN 'Article' THEN '\\s*\\d{1,3}[a-zđ]?\\.(?:\\s.*)?'
      WHEN 'Clause' THEN '\\s*[a-zđ]\\d?\\)(?:\\s.*)?' END AS sub_start
  WITH v, u, lines,
    coalesce([i IN range(1, size(lines) - 1) WHERE sub_start IS NOT NULL AND lines[i] =~ sub_start][0],
      size(lines)) AS subs,
    CASE WHEN u.level IN ['Clause', 'Point'] THEN 0
      WHEN u.level = 'Article' AND size(lines) > 1 AND trim(lines[0]) =~ '(?i)điều\\s+\\S+\\s*[.:]?' THEN 2 ELSE 1 END AS name_lines
  WITH v, u, lines, subs, CASE WHEN name_lines > subs THEN subs ELSE name_lines END AS name_lines,
    CASE WHEN u.level = 'Clause' AND NOT v.scope_text STARTS WITH u.number + '.' THEN u.number + '. '
      WHEN u.level = 'Point' AND NOT v.scope_text STARTS WITH u.number + ')' THEN u.number + ') '
      ELSE '' END AS marker
  WITH v, CASE v.scope
      WHEN 'title' THEN [v.scope_text] + lines[name_lines..]
      WHEN 'head' THEN [v.scope_text] + lines[subs..]
      ELSE lines[..name_lines] + [marker + v.scope_text] + lines[subs..] END AS out
  WITH v, trim(reduce(t = '', x IN out | t + '\n' + x)) AS whole
  SET v.text = whole, v.text_segmented = whole
}
CALL () {
  MATCH (s:LegalNode)-[r:AMENDS]->(t:LegalNode)
  WHERE r.edits IS NOT NULL AND size(r.edits) >= 2
    AND ($doc_ids IS NULL OR coalesce(t.doc_id, t.id) IN $doc_ids)
  OPTIONAL MATCH (sd:LegalNode {id: coalesce(s.doc_id, s.id)}) WHERE sd:Document
  WITH r, t, coalesce(s.doc_id, s.id) AS by, coalesce(r.effective_date, sd.effective_date) AS eff,
    sd.issue_date AS nb
  WITH r, t, by, eff, nb, coalesce(eff, nb) AS day WHERE day IS NOT NULL
  CALL (t) {
    MATCH (t)-[:CONTAINS*0..6]->(u:LegalUnit) WHERE NOT t:Document AND NOT u:UnitVersion
    RETURN u
    UNION
    MATCH (u:LegalUnit {doc_id: t.id}) WHERE t:Document AND NOT u:UnitVersion
    RETURN u
  }
  WITH u, r, by, eff, nb, day ORDER BY day, by, elementId(r)
  RETURN u, collect({by: by, day: day, eff: eff, nb: nb, edits: r.edits}) AS ops
}
UNWIND range(0, size(ops) - 1) AS i
WITH u, ops, i, ops[i] AS op
// the wording the edit applies to: the latest one written in full that had started by then
CALL (u, op) {
  OPTIONAL MATCH (v:UnitVersion)-[:VERSION_OF]->(u)
  WHERE v.derived IS NULL AND coalesce(v.valid_from, v.not_before) <= op.day
  WITH v ORDER BY coalesce(v.valid_from, v.not_before) DESC, v.id DESC
  LIMIT 1
  RETURN v AS base
}
WITH u, ops, i, op, coalesce(base.text, u.text) AS base_text,
  coalesce(base.valid_from, base.not_before) AS base_day
WITH u, op, base_text, base_day,
  [j IN range(0, i - 1) WHERE base_day IS NULL OR ops[j].day > base_day | ops[j]] AS earlier
WHERE base_day IS NULL OR op.day > base_day
WITH u, op, base_day, reduce(t = base_text, o IN earlier |
    reduce(t2 = t, k IN range(0, size(o.edits) / 2 - 1) |
      replace(t2, o.edits[2 * k], o.edits[2 * k + 1]))) AS before
WITH u, op, base_day, before, reduce(t2 = before, k IN range(0, size(op.edits) / 2 - 1) |
    replace(t2, op.edits[2 * k], op.edits[2 * k + 1])) AS after
WHERE before IS NOT NULL AND after <> before
WITH u, op, base_day, after, u.id + '@' + op.by AS vid
OPTIONAL MATCH (clash:LegalNode {id: vid})
WITH u, op, base_day, after, vid, clash WHERE clash IS NULL OR clash.derived = 'phrase'
MERGE (v:LegalNode {id: vid})
SET v:LegalUnit:UnitVersion, v.doc_id = u.doc_id, v.level = u.level, v.number = u.number,
  v.path = u.path, v.label = u.label, v.heading = u.heading, v.citation = u.citation,
  v.text = after, v.text_segmented = after, v.embedding = u.embedding,
  v.amended_by = op.by, v.valid_from = op.eff, v.valid_from_unknown = op.eff IS NULL,
  v.not_before = op.nb, v.derived = 'phrase', v.scope = 'phrase', v.status = 'in_force',
  v.base_from = base_day
MERGE (v)-[:VERSION_OF]->(u)
WITH count(DISTINCT v) AS made
CALL () {
  MATCH (s:LegalNode)-[r:AMENDS]->(t:LegalNode) WHERE r.edits IS NOT NULL
    AND ($doc_ids IS NULL OR coalesce(t.doc_id, t.id) IN $doc_ids)
  WITH r, t, coalesce(s.doc_id, s.id) AS by
  CALL (t, by) {
    OPTIONAL MATCH (t)-[:CONTAINS*0..6]->(:LegalUnit)<-[:VERSION_OF]-(v:UnitVersion)
    WHERE NOT t:Document AND v.derived = 'phrase' AND v.amended_by = by
    RETURN count(v) AS in_unit
  }
  CALL (t, by) {
    OPTIONAL MATCH (v:UnitVersion {doc_id: t.id})
    WHERE t:Document AND v.derived = 'phrase' AND v.amended_by = by
    RETURN count(v) AS in_doc
  }
  SET r.applied = in_unit + in_doc
}
// "Bãi bỏ cụm từ “X” tại khoản 2 Điều 40, khoản 4 Điều 61, Điều 58" (method listed_phrase_removal):
// a place of the list that nowhere holds the phrase, in any case or spacing, while another place
// of the same list does, is itself repealed: a REPEALS edge (method listed_unit_repeal) beside
// the phrase edit, made again on every derive
CALL () {
  MATCH ()-[x:REPEALS {method: 'listed_unit_repeal'}]->(t:LegalNode)
  WHERE $doc_ids IS NULL OR coalesce(t.doc_id, t.id) IN $doc_ids
  DELETE x
}
CALL () {
  MATCH (s:LegalNode)-[r:AMENDS {method: 'listed_phrase_removal'}]->(t:LegalUnit)
  WHERE coalesce(r.applied, 0) = 0 AND r.edits IS NOT NULL AND t.text IS NOT NULL
    AND ($doc_ids IS NULL OR t.doc_id IN $doc_ids)
    AND EXISTS { MATCH (s)-[r2:AMENDS {method: 'listed_phrase_removal'}]->()
                 WHERE r2.applied > 0 AND r2.edits = r.edits }
  WITH s, r, t, toLower(reduce(x = t.text, c IN ['\n', '\t', '  '] | replace(x, c, ' '))) AS said,
    [k IN range(0, size(r.edits) / 2 - 1) WHERE NOT r.edits[2 * k] STARTS WITH '\uE000'
      | toLower(trim(r.edits[2 * k]))] AS phrases
  WHERE size(phrases) > 0 AND none(ph IN phrases WHERE said CONTAINS ph)
  MERGE (s)-[x:REPEALS {method: 'listed_unit_repeal', origin: r.origin}]->(t)
  SET x.evidence = r.evidence, x.effective_date = r.effective_date,
    x.date_from_doc = r.date_from_doc, x.written_by = r.written_by
}
RETURN made AS count
