// purpose: The documents whose derived state (validity, status, start date, phrase versions, defined terms, inserted units) a write of the documents $doc_ids can change: the derive steps run on these alone (incremental derive; loaders/legal/_loader.py says why each part is needed). Run it after the write, and before a re-load or a removal too (what the documents wrote before is taken out).
// mode: read
// param doc_ids: list<string> -- ids of the documents written, re-written or removed
// returns: doc_id, loaded
CALL () {
  // (1) the documents themselves
  UNWIND $doc_ids AS id
  RETURN id AS doc
  UNION
  // (2) the documents they write new wordings or inserted units into
  // (two branches, not one OR: each reads its own index)
  MATCH (w:LegalUnit) WHERE w.amended_by IN $doc_ids
  RETURN w.doc_id AS doc
  UNION
  MATCH (w:LegalUnit) WHERE w.supplemented_by IN $doc_ids
  RETURN w.doc_id AS doc
  UNION
  // (3) the documents their units, or they themselves, amend, supplement, repeal or replace
  UNWIND $doc_ids AS id
  MATCH (:LegalUnit {doc_id: id})-[:AMENDS|SUPPLEMENTS|REPEALS|REPLACES]->(t)
  RETURN coalesce(t.doc_id, t.id) AS doc
  UNION
  UNWIND $doc_ids AS id
  MATCH (:LegalNode {id: id})-[:AMENDS|SUPPLEMENTS|REPEALS|REPLACES]->(t)
  RETURN coalesce(t.doc_id, t.id) AS doc
  UNION
  // (4) change edges they wrote between units of other documents (codification notes)
  MATCH (a)-[r:AMENDS|SUPPLEMENTS|REPEALS|REPLACES]->(b)
  WHERE any(x IN coalesce(r.written_by, []) WHERE x IN $doc_ids)
  UNWIND [coalesce(a.doc_id, a.id), coalesce(b.doc_id, b.id)] AS doc
  RETURN doc
}
WITH collect(DISTINCT doc) AS direct
// (5) what waits for a title (doc_id '~<slug>'): rehome_title_placeholders runs on the whole
// graph and moves it into the one loaded Document carrying the title. The write changes where a
// title lands only through that title: a written document carries it (name_slugs) or, as a
// codification, names it (cited_names), a codification names a written document by it, or the
// write put something under it (a '~' id among the direct ones). Only such titles, and only
// while something waits for them, add their pending id and every document they may land on;
// the other titles wait as they did (a real corpus keeps dozens: laws named by title only and
// never loaded, or loaded twice under one title).
CALL (direct) {
  CALL (direct) {
    UNWIND direct AS x
    WITH x WHERE x STARTS WITH '~'
    RETURN substring(x, 1) AS slug
    UNION
    UNWIND $doc_ids AS id
    MATCH (d:LegalNode {id: id}) WHERE d:Document
    UNWIND coalesce(d.name_slugs, []) + [e IN coalesce(d.cited_names, []) | split(e, '|')[1]] AS slug
    RETURN slug
    UNION
    MATCH (c:Document) WHERE c.cited_names IS NOT NULL
    UNWIND c.cited_names AS entry
    WITH split(entry, '|') AS parts
    WHERE parts[2] IN $doc_ids
    RETURN parts[1] AS slug
  }
  RETURN collect(DISTINCT slug) AS slugs
}
CALL (slugs) {
  UNWIND slugs AS pending_slug
  WITH pending_slug, '~' + pending_slug AS pending
  WHERE EXISTS { MATCH (u:LegalUnit {doc_id: pending}) }
    OR EXISTS { MATCH (p:Placeholder) WHERE p.doc_id = pending }
  CALL (pending) {
    RETURN pending AS doc
    UNION
    MATCH (d:Document) WHERE substring(pending, 1) IN d.name_slugs
    RETURN d.id AS doc
    UNION
    MATCH (c:Document) WHERE c.cited_names IS NOT NULL
    UNWIND c.cited_names AS entry
    WITH split(entry, '|') AS parts
    WHERE parts[1] = substring(pending, 1)
    RETURN parts[2] AS doc
  }
  RETURN collect(DISTINCT doc) AS titled
}
WITH apoc.coll.toSet(direct + titled) AS first
// (6) a document among them whose start date moves (new wording states it, or an earlier derive
// moved it) carries that date to the units, versions and change edges dated from it, in the
// documents it writes into: those documents are derived too
CALL (first) {
  UNWIND first AS y
  MATCH (d:LegalNode {id: y}) WHERE d:Document
    AND (EXISTS { MATCH (v:UnitVersion {doc_id: y}) WHERE v.doc_start IS NOT NULL }
      OR (d.effective_date_stated IS NOT NULL AND d.effective_date <> d.effective_date_stated))
  CALL (y) {
    MATCH (u:LegalUnit {date_from_doc: y})
    RETURN u.doc_id AS doc
    UNION
    MATCH (:LegalUnit {doc_id: y})-[r:AMENDS|SUPPLEMENTS|REPEALS|REPLACES]->(t)
    WHERE r.date_from_doc = y
    RETURN coalesce(t.doc_id, t.id) AS doc
    UNION
    MATCH (:LegalNode {id: y})-[r:REPLACES|REPEALS]->(t)
    WHERE r.date_from_doc = y
    RETURN coalesce(t.doc_id, t.id) AS doc
  }
  RETURN collect(DISTINCT doc) AS moved
}
WITH apoc.coll.toSet(first + moved) AS docs
// (7) a unit of one of them contained by, or containing, a unit of another document: a
// wording's parts_changed_from reads its parts
CALL (docs) {
  UNWIND docs AS y
  OPTIONAL MATCH (:LegalUnit {doc_id: y})-[:CONTAINS]-(o:LegalUnit)
  WHERE o.doc_id <> y
  RETURN collect(DISTINCT o.doc_id) AS across
}
UNWIND apoc.coll.toSet(docs + across) AS doc_id
// loaded: a Document of the graph (false: a document only named, or a title waiting for one)
OPTIONAL MATCH (held:LegalNode {id: doc_id}) WHERE held:Document
RETURN doc_id, held IS NOT NULL AS loaded
