// Fragment: validity tracing, references and provenance from the seed units in the list
// `seed_ids` (rank order), which the including query binds; included by legal/expand_context
// (ids given) and legal/retrieve_context (ids from the seed search, same round trip).
// Parameters the including query must declare: as_of, max_depth, max_refs.
// Returns one row: seeds (per seed: applicable wording, change events, references, changed
// parts), units (provenance of every unit involved).
// Unknown dates: a change whose date is unknown (the edge's effective_date and its document's
// are null) starts at its document's issue date (not_before) and is flagged date_unknown; with
// no issue date either it is never in force. A wording with valid_from_unknown likewise counts
// from its not_before.
UNWIND range(0, size(seed_ids) - 1) AS seed_rank
MATCH (s:LegalNode {id: seed_ids[seed_rank]}) WHERE s:LegalUnit
OPTIONAL MATCH (s)-[:VERSION_OF]->(vb:LegalUnit)
WITH seed_rank, s, coalesce(vb, s) AS base
OPTIONAL MATCH (bd:LegalNode {id: base.doc_id}) WHERE bd:Document
// Changes to the unit itself (scope 'self') or to a containing unit (scope 'ancestor').
CALL (base) {
  OPTIONAL MATCH (anc:LegalUnit)-[:CONTAINS*0..3]->(base)
  WITH DISTINCT anc
  OPTIONAL MATCH p = (anc)<-[:AMENDS|REPLACES|SUPPLEMENTS|REPEALS*1..10]-(src)
  WITH anc, p WHERE p IS NOT NULL AND length(p) <= $max_depth
  WITH anc, p, relationships(p) AS rels, nodes(p) AS ns
  CALL (rels) {
    UNWIND range(0, size(rels) - 1) AS i
    WITH i, rels[i] AS r
    OPTIONAL MATCH (sd:LegalNode {id: startNode(r).doc_id}) WHERE sd:Document
    WITH i, coalesce(r.effective_date, sd.effective_date) AS d, sd.issue_date AS nb ORDER BY i
    WITH collect({d: d, nb: nb}) AS ds
    RETURN [x IN ds | coalesce(x.d, x.nb)] AS dates, [x IN ds | x.d IS NULL] AS unknowns,
      [x IN ds | CASE WHEN x.d IS NULL THEN x.nb END] AS not_befores
  }
  WITH anc, p, rels, ns, last(rels) AS lr, dates, unknowns, not_befores
  WITH anc, p, rels, ns, lr, dates, unknowns, not_befores, startNode(lr) AS src, endNode(lr) AS tgt, last(ns) AS tip,
    any(i IN range(0, size(ns) - 2) WHERE ns[i] IN ns[i + 1..]) AS cycle
  WITH anc, p, rels, ns, lr, dates, unknowns, not_befores, src, tgt, cycle,
    (length(p) = $max_depth AND EXISTS { (tip)<-[:AMENDS|REPLACES|SUPPLEMENTS|REPEALS]-() }) AS cut
  // The new wording: the target's version enacted by the amending document; for a change to a
  // containing unit, the base unit's own version in that document when it has one.
  OPTIONAL MATCH (v:LegalNode {id: tgt.id + '@' + src.doc_id}) WHERE v:UnitVersion
  OPTIONAL MATCH (bv:LegalNode {id: base.id + '@' + src.doc_id}) WHERE bv:UnitVersion AND anc <> base
  WITH anc, p, rels, dates, unknowns, not_befores, lr, src, tgt, cycle, cut, v, bv,
    CASE type(lr)
      WHEN 'AMENDS' THEN coalesce(bv.id, v.id)
      WHEN 'REPLACES' THEN src.id
      WHEN 'SUPPLEMENTS' THEN coalesce(bv.id, v.id, tgt.id)
      ELSE null END AS successor_id
  // A containing unit given a new name, new opening words or a phrase edit only (its version's
  // scope) keeps this unit's wording: unless the amending document wrote this unit a version of
  // its own, the change does not reach it ("Sửa đổi tên Điều 33" leaves điểm a khoản 3 in force).
  WHERE NOT (anc <> base AND length(p) = 1 AND type(lr) = 'AMENDS' AND bv IS NULL
    AND v IS NOT NULL AND coalesce(v.scope, '') IN ['title', 'lead', 'head', 'phrase'])
  RETURN collect({
    scope: CASE WHEN anc = base THEN 'self' ELSE 'ancestor' END,
    textual: type(lr) = 'AMENDS' AND coalesce(bv.id, v.id) IS NULL,
    // A unit the inserting document itself wrote inside the unit it inserts (khoản 2 of an
    // inserted Điều 7a) is that insertion's wording: the container's new version dates it, it does
    // not supersede it.
    versioned: coalesce(bv.id, v.id) IS NOT NULL AND NOT (anc <> base AND type(lr) = 'SUPPLEMENTS'
      AND bv IS NULL AND base.supplemented_by = src.doc_id),
    // a text to add at the end that was not added (a unit with parts) is a change not worded
    phrase: lr.edits IS NOT NULL AND NOT (lr.method = 'text_addition' AND coalesce(lr.applied, 0) = 0),
    anchor_id: anc.id,
    kind: type(lr),
    depth: length(p),
    successor_id: successor_id,
    effective: last(dates),
    in_force: all(d IN dates WHERE d IS NOT NULL AND d <= $as_of),
    undated: any(d IN dates WHERE d IS NULL),
    date_unknown: any(x IN unknowns WHERE x),
    not_before: last(not_befores),
    cycle: cycle,
    cut: cut,
    steps: [i IN range(0, size(rels) - 1) | {
      relation: type(rels[i]), source_id: startNode(rels[i]).id, target_id: endNode(rels[i]).id,
      source_citation: startNode(rels[i]).citation,
      effective_date: CASE WHEN unknowns[i] THEN null ELSE dates[i] END,
      date_unknown: unknowns[i], not_before: not_befores[i],
      method: rels[i].method, evidence: rels[i].evidence}]
  }) AS events
}
// Document-level replacement or expiry of the base unit's document.
CALL (bd) {
  OPTIONAL MATCH (nd:Document)-[r:REPLACES|REPEALS]->(bd)
  WITH nd, r WHERE nd IS NOT NULL
    AND coalesce(r.effective_date, nd.effective_date, date('0001-01-01')) <= $as_of
  RETURN collect({doc_id: nd.id, number: nd.number, kind: type(r),
    effective: coalesce(r.effective_date, nd.effective_date)}) AS doc_replaced
}
WITH seed_rank, s, base, bd, doc_replaced,
  [e IN events WHERE NOT e.cycle] AS good, [e IN events WHERE e.cycle] AS cycles, events
WITH seed_rank, s, base, bd, doc_replaced, events, cycles,
  [e IN good WHERE e.in_force AND NOT e.textual
    AND (e.kind <> 'SUPPLEMENTS' OR e.versioned)
    // a unit an inserting document wrote, once it has started, is not superseded by a change
    // older than its own start (Điều 104a inserted in 2018 and again in 2025: the 2025 clause's
    // own wording holds from 2025, not the 2018 article's)
    AND NOT (base.supplemented_by IS NOT NULL AND base.valid_from IS NOT NULL
      AND base.valid_from <= $as_of AND e.effective IS NOT NULL
      AND e.effective < base.valid_from)] AS in_force
// The latest in-force change decides (the unit's own change, then deeper chains, win ties; then a
// repeal, then the amending unit's id, so that the same graph always gives the same answer); REPEALS
// means no wording applies; SUPPLEMENTS only dates an inserted unit (its valid_from), unless the
// inserting document wrote a version of the unit (a unit the amended text already holds, though
// a later document inserts it: that document's wording applies from its date).
WITH seed_rank, s, base, bd, doc_replaced, events, cycles, in_force,
  reduce(best = null, e IN in_force |
    CASE WHEN best IS NULL
      OR coalesce(e.effective, date('0001-01-01')) > coalesce(best.effective, date('0001-01-01'))
      OR (coalesce(e.effective, date('0001-01-01')) = coalesce(best.effective, date('0001-01-01'))
          AND (e.scope = 'self' AND best.scope <> 'self'
            OR e.scope = best.scope AND e.depth > best.depth
            OR e.scope = best.scope AND e.depth = best.depth
              AND (e.kind = 'REPEALS' AND best.kind <> 'REPEALS'
                OR (e.kind = 'REPEALS') = (best.kind = 'REPEALS')
                  AND coalesce(last(e.steps).source_id, '') < coalesce(last(best.steps).source_id, ''))))
    THEN e ELSE best END) AS decisive
WITH seed_rank, s, base, bd, doc_replaced, events, cycles, decisive,
  CASE WHEN coalesce(base.valid_from_unknown, false) AND base.valid_from IS NULL
    THEN base.not_before IS NOT NULL AND base.not_before <= $as_of
    ELSE base.valid_from IS NULL OR base.valid_from <= $as_of END
    AND (base.valid_to IS NULL OR base.valid_to > $as_of)
    AND (bd IS NULL OR bd.effective_date IS NULL OR bd.effective_date <= $as_of)
    AND (bd IS NULL OR bd.expiry_date IS NULL OR bd.expiry_date > $as_of)
    AND size(doc_replaced) = 0 AS base_valid
WITH seed_rank, s, base, doc_replaced, events, cycles, decisive, base_valid,
  CASE
    WHEN decisive IS NULL THEN CASE WHEN base_valid THEN base.id END
    WHEN decisive.kind = 'REPEALS' THEN null
    WHEN size(doc_replaced) > 0 AND decisive.kind <> 'REPLACES' THEN null
    ELSE decisive.successor_id END AS applicable_id
// Changed parts of the unit (the as-of wording of a unit includes its sub-units' versions and
// inserted sub-units), shown beside it; repealed parts are listed with no wording (shown_id
// null). The caller consolidates the unit's text from them.
CALL (base) {
  OPTIONAL MATCH (base)-[:CONTAINS*1..2]->(part:LegalUnit)
  WHERE EXISTS { (part)<-[:VERSION_OF|SUPPLEMENTS|REPEALS]-() }
  WITH part WHERE part IS NOT NULL
  OPTIONAL MATCH (pv:UnitVersion)-[:VERSION_OF]->(part)
  WITH part, pv, coalesce(pv.valid_from_unknown, false) AND pv.valid_from IS NULL AS unknown
  WITH part, pv, unknown, CASE WHEN unknown THEN pv.not_before ELSE pv.valid_from END AS start
  ORDER BY start DESC, unknown
  WITH part, [x IN collect({pv: pv, start: start})
    WHERE x.start IS NOT NULL AND x.start <= $as_of][0].pv AS latest
  CALL (part) {
    OPTIONAL MATCH (part)<-[r:REPEALS]-(rs)
    OPTIONAL MATCH (rd:LegalNode {id: rs.doc_id}) WHERE rd:Document
    WITH coalesce(r.effective_date, rd.effective_date, rd.issue_date) AS d WHERE d <= $as_of
    RETURN count(d) > 0 AS repealed
  }
  WITH part, latest, repealed,
    coalesce(part.valid_from_unknown, false) AND part.valid_from IS NULL AS p_unknown
  WITH part, latest, repealed,
    CASE WHEN p_unknown THEN part.not_before ELSE part.valid_from END AS p_start
  WITH part, repealed,
    CASE WHEN repealed THEN null
      WHEN latest IS NOT NULL THEN latest
      WHEN EXISTS { (part)<-[:SUPPLEMENTS]-() } AND p_start <= $as_of THEN part END AS shown
  WITH part, repealed, shown WHERE repealed
    OR (shown IS NOT NULL AND (shown.valid_to IS NULL OR shown.valid_to > $as_of))
  ORDER BY part.id LIMIT 24
  RETURN collect({part_id: part.id, shown_id: shown.id, anchor_id: part.inserted_after,
    kind: CASE WHEN repealed THEN 'REPEALS' WHEN shown = part THEN 'SUPPLEMENTS'
      ELSE 'VERSION_OF' END}) AS parts
}
// One hop of references from the seed and from the applicable wording.
CALL (s, applicable_id) {
  OPTIONAL MATCH (x:LegalNode)-[r:REFERS_TO]->(t:LegalUnit)
  WHERE x.id IN [s.id, applicable_id] AND x:LegalUnit AND t.id <> s.id
  WITH x, r, t WHERE t IS NOT NULL
  ORDER BY x.id, t.id
  WITH x, collect({from_id: x.id, target_id: t.id, method: r.method, evidence: r.evidence})[..$max_refs] AS refs
  RETURN reduce(acc = [], l IN collect(refs) | acc + l) AS references
}
WITH collect({
  seed_rank: seed_rank, seed_id: s.id, base_id: base.id, applicable_id: applicable_id,
  decisive: decisive, events: events, cycles: size(cycles), doc_replaced: doc_replaced,
  references: references, parts: parts,
  unit_ids: [s.id, base.id] + [e IN events | e.successor_id] + [r IN references | r.target_id]
    + [x IN parts | x.shown_id] + [x IN parts | x.part_id] + [x IN parts | x.anchor_id]
    + reduce(acc = [], e IN events | acc + [st IN e.steps | st.source_id])
}) AS seeds
// Provenance of every unit involved: document fields and position up the containment tree.
CALL (seeds) {
  UNWIND seeds AS sd
  UNWIND sd.unit_ids AS uid
  WITH DISTINCT uid WHERE uid IS NOT NULL
  MATCH (u:LegalNode {id: uid}) WHERE u:LegalUnit
  OPTIONAL MATCH (u)-[:VERSION_OF]->(vt:LegalUnit)
  // A version's change kinds: those of the edges its amending document's units draw to the
  // unit it is a version of (only SUPPLEMENTS: an inserted wording, "bổ sung").
  CALL (u, vt) {
    OPTIONAL MATCH (src:LegalUnit)-[e:AMENDS|REPLACES|SUPPLEMENTS]->(vt)
    WHERE vt IS NOT NULL AND src.doc_id = u.amended_by
    RETURN apoc.coll.sort(collect(DISTINCT type(e))) AS version_kinds
  }
  WITH u, coalesce(vt, u) AS anchor, version_kinds
  OPTIONAL MATCH (d:LegalNode {id: u.doc_id}) WHERE d:Document
  OPTIONAL MATCH ap = (:Document)-[:CONTAINS*1..8]->(anchor)
  WITH u, anchor, version_kinds, d, ap ORDER BY length(ap) DESC
  WITH u, anchor, version_kinds, d, head(collect(ap)) AS ap
  RETURN collect({
    id: u.id, doc_id: u.doc_id, level: u.level, number: u.number, path: u.path, label: u.label,
    heading: u.heading, text: u.text, valid_from: u.valid_from, valid_to: u.valid_to,
    valid_from_unknown: coalesce(u.valid_from_unknown, false) AND u.valid_from IS NULL,
    not_before: u.not_before, valid_to_unknown: coalesce(u.valid_to_unknown, false),
    inserted_after: u.inserted_after, parts_changed_from: u.parts_changed_from,
    status: u.status, citation: u.citation, is_version: u:UnitVersion, version_kinds: version_kinds,
    anchor_id: anchor.id,
    anchor_doc_id: anchor.doc_id,
    position: CASE WHEN ap IS NULL THEN [] ELSE
      [n IN tail(nodes(ap)) | {id: n.id, level: n.level, number: n.number, label: n.label, heading: n.heading,
        // an article's wording in force at the date when a version gives it one (its name may
        // be new: "Sửa đổi tên Điều 33")
        current_text: CASE WHEN n.level = 'Article' THEN reduce(best = null, tv IN
          [(n)<-[:VERSION_OF]-(tv:UnitVersion) WHERE tv.valid_from IS NOT NULL AND tv.valid_from <= $as_of
            AND (tv.valid_to IS NULL OR tv.valid_to > $as_of) | tv]
          | CASE WHEN best IS NULL OR tv.valid_from > best.valid_from THEN tv ELSE best END).text END}] END,
    doc: CASE WHEN d IS NULL THEN null ELSE {id: d.id, number: d.number, doc_type: d.doc_type,
      title: d.title, issuer: d.issuer, issue_date: d.issue_date, effective_date: d.effective_date,
      expiry_date: d.expiry_date, status: d.status} END
  }) AS units
}
RETURN seeds, units
