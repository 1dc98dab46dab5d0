// purpose: Passage-level retrieval (the passage "RO" baseline): top-k passages by vector similarity, with their sentences' ids.
// mode: read
// param embedding: list<float> -- the question's vector
// param k: int -- how many passages
// returns: id, title, text, score, sentence_ids
CALL db.index.vector.queryNodes('passage_embedding_vector', $k, $embedding) YIELD node, score
OPTIONAL MATCH (s:Sentence {passage_id: node.id})
WITH node, score, s ORDER BY s.position
RETURN node.id AS id, node.title AS title, node.text AS text, score, collect(s.id) AS sentence_ids
ORDER BY score DESC, id
