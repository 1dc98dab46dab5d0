// purpose: Attach units inserted by an amendment (Điều 12a after Điều 12) to the parent of the unit they follow, once both are loaded; deterministic post-load step; the edge carries derived = true.
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: count
MATCH (n:LegalUnit)
WHERE n.inserted_after IS NOT NULL AND NOT n:UnitVersion AND NOT EXISTS { (n)<-[:CONTAINS]-() }
  AND ($doc_ids IS NULL OR n.doc_id IN $doc_ids)
MATCH (anchor:LegalNode {id: n.inserted_after})<-[:CONTAINS]-(p)
WHERE NOT p:Placeholder
MERGE (p)-[r:CONTAINS]->(n)
  // derived, not written by a document: a re-load of the parent's document takes it out and
  // this step puts it back when the anchor is still there
  ON CREATE SET r.derived = true
RETURN count(r) AS count
