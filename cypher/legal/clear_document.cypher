// purpose: Take out what one document wrote before it is written again, so that a re-load replaces it whole in its own transaction: its Document and units, the versions and inserted units it wrote into other documents, the edges it wrote (containment of its nodes, VERSION_OF, HAS_UNRESOLVED, DEFINES from its nodes, relations whose written_by names it) and its unresolved references. A node of it that another document's edge still touches stays as a Placeholder (as if that other document had been loaded first), so no other document loses an edge; Placeholders and unresolved references nothing touches any more are removed; units that lost a change event get back the validity the loader writes, for the derive steps to recompute. Nothing happens for a document the graph does not hold.
// mode: write
// param doc_id: string -- id of the document about to be written
// returns: edges, removed, demoted
CALL () {
  OPTIONAL MATCH (d:LegalNode {id: $doc_id}) WHERE d:Document
  WITH collect(d) AS docs
  OPTIONAL MATCH (u:LegalUnit {doc_id: $doc_id})
  WHERE (u.amended_by IS NULL AND u.supplemented_by IS NULL)
    // a unit the derive step made from new wording alone exists because this document is loaded
    OR (u.supplemented_by IS NOT NULL AND u.text IS NULL AND NOT u:UnitVersion
        AND EXISTS { (u)<-[:VERSION_OF]-(:UnitVersion) })
  WITH docs, collect(u) AS own
  // versions and inserted units it wrote into other documents (two indexed reads, not one OR)
  CALL () {
    OPTIONAL MATCH (w:LegalUnit {amended_by: $doc_id})
    RETURN collect(w) AS versions
  }
  CALL () {
    OPTIONAL MATCH (w:LegalUnit {supplemented_by: $doc_id})
    RETURN collect(w) AS inserted
  }
  WITH docs, own, apoc.coll.toSet(versions + inserted) AS written
  RETURN docs + own + written AS owned
}
// The edges it wrote: containment belongs to the child's writer (a derived one, to both ends),
// VERSION_OF, HAS_UNRESOLVED and DEFINES to the source's; relations name their writers (older graphs: the source's writer).
CALL (owned) {
  UNWIND owned AS n
  MATCH (n)-[r]-()
  WHERE CASE
    WHEN type(r) = 'CONTAINS' THEN endNode(r) = n OR coalesce(r.derived, false)
    WHEN type(r) IN ['VERSION_OF', 'HAS_UNRESOLVED', 'DEFINES'] THEN startNode(r) = n
    WHEN r.written_by IS NULL THEN startNode(r) = n
    ELSE $doc_id IN r.written_by END
  RETURN collect(DISTINCT r) AS touching
}
// Codification notes join two units of other documents.
CALL () {
  OPTIONAL MATCH ()-[r:AMENDS|SUPPLEMENTS|REPEALS {origin: 'codification'}]->()
  WHERE $doc_id IN r.written_by
  RETURN collect(r) AS noted
}
CALL (owned, touching, noted) {
  UNWIND apoc.coll.toSet(touching + noted) AS r
  WITH r, startNode(r) AS a, endNode(r) AS b, type(r) AS kind,
    [x IN coalesce(r.written_by, []) WHERE x <> $doc_id] AS others
  FOREACH (_ IN CASE WHEN size(others) > 0 THEN [1] ELSE [] END | SET r.written_by = others)
  FOREACH (_ IN CASE WHEN size(others) = 0 THEN [1] ELSE [] END | DELETE r)
  WITH collect(CASE WHEN size(others) = 0 THEN a END) AS starts,
    collect(CASE WHEN size(others) = 0 THEN b END) AS targets,
    // (Placeholders are left out here: the next step may delete them)
    collect(CASE WHEN size(others) = 0 AND kind IN ['VERSION_OF', 'REPEALS', 'REPLACES']
      AND NOT b:Placeholder THEN b END) AS changed, count(*) AS edges
  CALL (starts, targets, owned) {
    UNWIND starts + targets AS m
    WITH DISTINCT m WHERE NOT m IN owned
      AND (m:Placeholder OR m:UnresolvedReference) AND NOT EXISTS { (m)--() }
    DELETE m
  }
  CALL (changed, owned) {
    UNWIND changed AS t
    WITH DISTINCT t WHERE NOT t IN owned
    OPTIONAL MATCH (u:LegalUnit {doc_id: t.id}) WHERE t:Document AND NOT u:UnitVersion
    WITH t, collect(u) AS units
    UNWIND CASE WHEN t:LegalUnit AND NOT t:UnitVersion THEN units + [t] ELSE units END AS x
    SET x.valid_to = null, x.status = 'in_force'
    REMOVE x.valid_to_unknown
  }
  RETURN edges
}
CALL (owned) {
  UNWIND owned AS n
  WITH n, EXISTS { (n)--() } AS kept
  CALL (n, kept) {
    WITH n WHERE kept
    SET n = {id: n.id, kind: CASE WHEN n:Document THEN 'document' ELSE 'unit' END,
             doc_id: coalesce(n.doc_id, n.id)}
    REMOVE n:$([l IN labels(n) WHERE l <> 'LegalNode'])
    SET n:Placeholder
  }
  CALL (n, kept) {
    WITH n WHERE NOT kept
    DELETE n
  }
  RETURN count(CASE WHEN NOT kept THEN 1 END) AS removed, count(CASE WHEN kept THEN 1 END) AS demoted
}
RETURN edges, removed, demoted
