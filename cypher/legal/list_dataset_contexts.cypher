// purpose: Contexts for the ViHERMES dataset builder: every article (not a version) with a text of at least min_chars characters, its document's title and its stored vector (null when loaded without embeddings).
// mode: read
// param min_chars: int -- shortest article text kept
// param max_contexts: int -- most contexts returned, in id order
// returns: id, doc_id, title, text, embedding
MATCH (u:Article)
WHERE NOT u:UnitVersion AND u.text IS NOT NULL AND size(u.text) >= $min_chars
OPTIONAL MATCH (d:LegalNode {id: u.doc_id}) WHERE d:Document
RETURN u.id AS id, u.doc_id AS doc_id, coalesce(d.title, d.number, u.doc_id) AS title,
  u.text AS text, u.embedding AS embedding
ORDER BY id
LIMIT $max_contexts
