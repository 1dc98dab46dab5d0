// purpose: Give an article's whole new wording quoted without its name (body_text) the name of the article it changes; write the whole wording of a version that gives a unit a new name or new opening words only (scope title/lead/head, from scope_text and the wording it changes), then apply phrase edits (AMENDS edges carrying edits [old, new, ...]: a phrase replaced, removed or added, in a unit and its sub-units or in every unit of a document) to the wording: each unit whose wording an edit changes gets a UnitVersion (derived 'phrase', scope 'phrase', id <unit>@<amending document>) whose text is the latest wording written in full that had started by the edit's date, with every phrase edit since then applied in date order (a phrase the unit holds only with its first letter in upper case is replaced in that form; a text added at the end of a unit with no parts is appended; base_from: the start of that wording, null for the unit's own text). Versions derived before are taken out first, so the result depends only on the graph; each edit records how many units it changed (applied), 0 when its phrase was found nowhere. A place of a listed phrase repeal that nowhere holds the phrase gets a REPEALS edge (method listed_unit_repeal).
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: count
CALL () {
  MATCH (old:UnitVersion) WHERE old.derived = 'phrase'
    AND ($doc_ids IS NULL OR old.doc_id IN $doc_ids)
  DETACH DELETE old
}
// An article's whole new wording quoted without its name ("Điều 49 được sửa đổi, bổ sung như
// sau: “1. …⏎2. …”", body_text as written): the name of the article it changes (the first line
// of its enacted wording, two when "Điều 49." stands alone) before the quoted clauses.
CALL () {
  MATCH (v:UnitVersion)-[:VERSION_OF]->(u:LegalNode)
  WHERE v.body_text IS NOT NULL AND ($doc_ids IS NULL OR v.doc_id IN $doc_ids)
  WITH v, u, split(coalesce(u.text, ''), '\n') AS lines
  WITH v, u, trim(CASE WHEN size(lines) > 1 AND trim(lines[0]) =~ '(?i)điều\\s+\\S+\\s*[.:]?'
      THEN lines[0] + '\n' + lines[1] ELSE lines[0] END) AS name
  SET v.text = CASE WHEN name = '' THEN v.body_text ELSE name + '\n' + v.body_text END,
    v.heading = coalesce(v.heading, u.heading)
}
// A new name or new opening words only (scope 'title', 'lead' or 'head': both; scope_text as
// written) of an article, clause or point: the version's text is the unit's whole wording at the
// version's start, like a version written in full: the wording it changes (the latest written in
// full that had started by then, else the unit's own text) with that part replaced, and the
// changes of its parts in force by then applied (a part's latest wording in place of its earlier
// ones, a repealed part reduced to its marker, an inserted part after the part it follows), so
// that no earlier wording of a part is served in it (derive_version_validity marks it stale
// inside from a later change of a part). An article's name is its first line ('Điều 5.' alone:
// the next line too); the opening words run to the first line that starts a clause (of an
// article) or a point (of a clause). A chapter's or section's new name stays the name alone.
CALL () {
  MATCH (v:UnitVersion)-[:VERSION_OF]->(u:LegalUnit)
  WHERE v.scope IN ['title', 'lead', 'head'] AND v.scope_text IS NOT NULL
    AND ($doc_ids IS NULL OR v.doc_id IN $doc_ids)
  WITH v, u, coalesce(v.valid_from, v.not_before) AS day
  CALL (v, u, day) {
    OPTIONAL MATCH (b:UnitVersion)-[:VERSION_OF]->(u)
    WHERE b <> v AND b.derived IS NULL AND b.scope IS NULL
      AND coalesce(b.valid_from, b.not_before) <= day
    WITH b ORDER BY coalesce(b.valid_from, b.not_before) DESC, b.id DESC
    LIMIT 1
    RETURN b
  }
  WITH v, u, day, split(coalesce(b.text, u.text, ''), '\n') AS lines,
    CASE u.level WHEN 'Article' THEN '\\s*\\d{1,3}[a-zđ]?\\.(?:\\s.*)?'
      WHEN 'Clause' THEN '\\s*[a-zđ]\\d?\\)(?:\\s.*)?' END AS sub_start
  WITH v, u, day, lines,
    coalesce([i IN range(1, size(lines) - 1) WHERE sub_start IS NOT NULL AND lines[i] =~ sub_start][0],
      size(lines)) AS subs,
    CASE WHEN u.level IN ['Clause', 'Point'] THEN 0
      WHEN size(lines) > 1 AND trim(lines[0]) =~ '(?i)điều\\s+\\S+\\s*[.:]?' THEN 2 ELSE 1 END AS name_lines
  WITH v, u, day, lines, subs, CASE WHEN name_lines > subs THEN subs ELSE name_lines END AS name_lines,
    CASE WHEN u.level = 'Clause' AND NOT v.scope_text STARTS WITH u.number + '.' THEN u.number + '. '
      WHEN u.level = 'Point' AND NOT v.scope_text STARTS WITH u.number + ')' THEN u.number + ') '
      ELSE '' END AS marker
  WITH v, u, day, CASE v.scope
      WHEN 'title' THEN [v.scope_text] + lines[name_lines..]
      WHEN 'head' THEN [v.scope_text] + lines[subs..]
      ELSE lines[..name_lines] + [marker + v.scope_text] + lines[subs..] END AS out
  WITH v, u, day, trim(reduce(t = '', x IN out | t + '\n' + x)) AS composed
  // the parts changed by the version's start: [earlier wordings], the wording then (null:
  // repealed), the wording an inserted part follows
  CALL (u, day) {
    OPTIONAL MATCH (u)-[:CONTAINS*1..2]->(p:LegalUnit) WHERE NOT p:UnitVersion
    WITH p WHERE p IS NOT NULL
    CALL (p, day) {
      OPTIONAL MATCH (pv:UnitVersion)-[:VERSION_OF]->(p)
      WHERE pv.derived IS NULL AND pv.scope IS NULL AND coalesce(pv.valid_from, pv.not_before) <= day
      WITH pv ORDER BY coalesce(pv.valid_from, pv.not_before), pv.id
      RETURN [x IN collect(pv) | x.text] AS wordings
    }
    CALL (p, day) {
      OPTIONAL MATCH (p)<-[r:REPEALS]-(rs)
      OPTIONAL MATCH (rd:LegalNode {id: coalesce(rs.doc_id, rs.id)}) WHERE rd:Document
      WITH coalesce(r.effective_date, rd.effective_date, rd.issue_date) AS d WHERE d <= day
      RETURN count(d) > 0 AS repealed
    }
    OPTIONAL MATCH (parent:LegalUnit)-[:CONTAINS]->(p) WHERE parent <> u
    WITH p, wordings, repealed, parent,
      p.supplemented_by IS NOT NULL AND coalesce(p.valid_from, p.not_before) <= day AS inserted,
      p.supplemented_by IS NOT NULL AND NOT coalesce(coalesce(p.valid_from, p.not_before) <= day, false) AS not_yet
    // a point inside a clause that is itself changed, inserted or repealed by then is in that
    // clause's wording
    WHERE NOT not_yet AND (parent IS NULL OR NOT (
      parent.supplemented_by IS NOT NULL
      OR EXISTS { MATCH (parent)<-[:VERSION_OF]-(x:UnitVersion) WHERE x.derived IS NULL AND x.scope IS NULL
                  AND coalesce(x.valid_from, x.not_before) <= day }
      OR EXISTS { MATCH (parent)<-[r2:REPEALS]-() WHERE coalesce(r2.effective_date, date('0001-01-01')) <= day }))
      AND (repealed OR inserted OR size(wordings) > 0)
    OPTIONAL MATCH (anchor:LegalUnit {id: p.inserted_after}) WHERE inserted
    OPTIONAL MATCH (av:UnitVersion)-[:VERSION_OF]->(anchor)
    WHERE av.derived IS NULL AND av.scope IS NULL AND coalesce(av.valid_from, av.not_before) <= day
    WITH p, wordings, repealed, inserted, anchor, av ORDER BY coalesce(av.valid_from, av.not_before) DESC
    WITH p, wordings, repealed, inserted, anchor, collect(av.text)[0] AS anchor_now
    ORDER BY CASE WHEN inserted THEN 1 ELSE 0 END, p.id
    WITH collect({
      olds: CASE WHEN inserted THEN [] ELSE [p.text] + wordings[..size(wordings) - 1] END,
      now: CASE WHEN repealed THEN p.number + CASE p.level WHEN 'Point' THEN ')' ELSE '.' END + ' (bãi bỏ)'
        WHEN size(wordings) > 0 THEN last(wordings) ELSE p.text END,
      inserted: inserted AND NOT repealed, anchor_id: anchor.id,
      anchor: coalesce(anchor_now, anchor.text)}) AS found
    // inserted parts in number order; one after a part another one was inserted after follows
    // that one ("khoản 1a, 1b và 1c vào sau khoản 1")
    RETURN [i IN range(0, size(found) - 1) | {olds: found[i].olds, now: found[i].now,
      inserted: found[i].inserted, anchor: coalesce(last(
      [j IN range(0, i - 1) WHERE found[i].inserted AND found[j].inserted
        AND found[j].anchor_id = found[i].anchor_id | found[j].now]), found[i].anchor)}] AS ops
  }
  // a wording found once in the text is replaced (found twice: which one is the part's is not
  // known, it stays, and the version is stale inside from then)
  WITH v, u, CASE WHEN u.level IN ['Article', 'Clause', 'Point'] THEN reduce(t = composed, op IN ops |
      CASE WHEN op.inserted THEN
        CASE WHEN t CONTAINS trim(op.now) THEN t
          WHEN op.anchor IS NOT NULL AND size(split(t, trim(op.anchor))) = 2
          THEN replace(t, trim(op.anchor), trim(op.anchor) + '\n' + trim(op.now))
          WHEN op.anchor IS NULL THEN t + '\n' + trim(op.now) ELSE t END
      ELSE reduce(t2 = t, o IN op.olds | CASE WHEN o IS NULL OR trim(o) = ''
        OR size(split(t2, trim(o))) <> 2 THEN t2
        ELSE replace(t2, trim(o), trim(op.now)) END) END)
    ELSE v.scope_text END AS whole
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
  WITH u, r, by, eff, nb, day,
    CASE WHEN r.edits[0] = '\uE002' AND u = t
      THEN NOT EXISTS { MATCH (u)-[:CONTAINS]->(:LegalUnit) } ELSE false END AS leaf_target
  ORDER BY day, by, elementId(r)
  // each edit as [old, new, Old, New]: the phrase as quoted, and with its first letter in upper
  // case, used where the unit holds only that form ("cụm từ “trường hợp”" at the start of a
  // sentence, "cụm từ “khoản 1”" in a text that writes "Khoản 1 Điều 26"); an edit that adds a
  // text at the end of the unit (old '\uE002', "Bổ sung … vào cuối khoản 3") only for the unit
  // named, when it has no parts (where the end of a clause with points lies is not known)
  RETURN u, collect({by: by, day: day, eff: eff, nb: nb, edits:
    [k IN range(0, size(r.edits) / 2 - 1) WHERE r.edits[2 * k] <> '\uE002' OR leaf_target
      | [r.edits[2 * k], r.edits[2 * k + 1]] + [x IN
      [r.edits[2 * k], r.edits[2 * k + 1]] | CASE WHEN x STARTS WITH ' '
        THEN ' ' + toUpper(substring(x, 1, 1)) + substring(x, 2)
        ELSE toUpper(left(x, 1)) + substring(x, 1) END]]}) AS ops
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
// the wordings after each edit in turn, from the base: the earlier ones, then this one (before:
// the wording it applies to, after: the result). A text added at the end goes on the sentence
// (opening with ';' or ',' or in lower case) before the unit's final '.' or ';', which then
// ends it; else it is a sentence of its own after it.
WITH u, op, base_day, reduce(acc = [base_text], o IN earlier + [op] | acc + [
    reduce(t2 = last(acc), e IN o.edits | CASE
      WHEN e[0] = '\uE002' THEN CASE
        WHEN left(e[1], 1) IN [';', ','] OR left(e[1], 1) <> toUpper(left(e[1], 1))
        THEN CASE WHEN right(trim(t2), 1) IN ['.', ';'] THEN left(trim(t2), size(trim(t2)) - 1)
            ELSE trim(t2) END + CASE WHEN left(e[1], 1) IN [';', ','] THEN '' ELSE ' ' END + e[1]
          + CASE WHEN right(trim(t2), 1) IN ['.', ';'] AND NOT right(e[1], 1) IN ['.', ';', ':']
            THEN right(trim(t2), 1) ELSE '' END
        ELSE trim(t2) + ' ' + e[1] + CASE WHEN right(trim(t2), 1) = '.'
          AND NOT right(e[1], 1) IN ['.', ';', ':'] THEN '.' ELSE '' END END
      WHEN t2 CONTAINS e[0] OR NOT t2 CONTAINS e[2]
      THEN replace(t2, e[0], e[1]) ELSE replace(t2, e[2], e[3]) END)]) AS texts
WITH u, op, base_day, texts[-2] AS before, texts[-1] AS after
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
