// purpose: The documents the loaded ones name (as amending, amended, replaced, repealed or referenced documents) that are not loaded: each placeholder's document with the relation types that reach it and the loaded documents that name it, so a reader knows which links the graph cannot follow.
// mode: read
// returns: doc_id, relations, named_by
MATCH (p:Placeholder)
WITH p, coalesce(p.doc_id, split(p.id, ':')[0]) AS doc_id
WHERE NOT EXISTS { MATCH (:Document {id: doc_id}) }
OPTIONAL MATCH (s:LegalNode)-[r]-(p)
WITH doc_id, type(r) AS relation, coalesce(s.doc_id, s.id) AS source
WITH doc_id, [x IN collect(DISTINCT relation) WHERE x IS NOT NULL] AS relations,
  [x IN collect(DISTINCT source) WHERE x IS NOT NULL AND x <> doc_id] AS named_by
RETURN doc_id, relations, named_by
ORDER BY doc_id
