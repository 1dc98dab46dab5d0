// purpose: Attach units inserted by an amendment (Điều 12a after Điều 12) to the parent of the unit they follow, once both are loaded; deterministic post-load step; the edge carries derived = true.
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: count
// scoped: the documents' units through the doc_id index, not a scan of every unit
CALL () {
  WITH 1 AS one WHERE $doc_ids IS NULL
  MATCH (n:LegalUnit) WHERE n.inserted_after IS NOT NULL
  RETURN n
  UNION
  UNWIND coalesce($doc_ids, []) AS id
  MATCH (n:LegalUnit {doc_id: id}) WHERE n.inserted_after IS NOT NULL
  RETURN n
}
WITH n WHERE NOT n:UnitVersion AND NOT EXISTS { (n)<-[:CONTAINS]-() }
MATCH (anchor:LegalNode {id: n.inserted_after})<-[:CONTAINS]-(p)
WHERE NOT p:Placeholder
MERGE (p)-[r:CONTAINS]->(n)
  // derived, not written by a document: a re-load of the parent's document takes it out and
  // this step puts it back when the anchor is still there
  ON CREATE SET r.derived = true
RETURN count(r) AS count
