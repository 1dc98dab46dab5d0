// purpose: Contexts for the ViHERMES dataset builder: the articles (not versions) with a text of at least min_chars characters, at most per_doc of each document (its first, in id order), with their document's title and stored vector (null when loaded without embeddings).
// mode: read
// param min_chars: int -- shortest article text kept
// param per_doc: int -- most articles of one document
// param max_contexts: int -- most contexts returned, in id order
// returns: id, doc_id, title, text, embedding
MATCH (u:Article)
WHERE NOT u:UnitVersion AND u.text IS NOT NULL AND size(u.text) >= $min_chars
WITH u ORDER BY u.doc_id, u.id
WITH u.doc_id AS doc_id, collect(u)[..$per_doc] AS units
UNWIND units AS u
OPTIONAL MATCH (d:LegalNode {id: doc_id}) WHERE d:Document
RETURN u.id AS id, doc_id, coalesce(d.title, d.number, doc_id) AS title,
  u.text AS text, u.embedding AS embedding
ORDER BY id
LIMIT $max_contexts
