// purpose: Candidate anchors: the top-K sentences by vector similarity to the question.
// mode: read
// param embedding: list<float> -- the question's vector
// param k: int -- how many sentences
// returns: id, passage_id, position, role, text, score
CALL db.index.vector.queryNodes('sentence_embedding_vector', $k, $embedding) YIELD node, score
RETURN node.id AS id, node.passage_id AS passage_id, node.position AS position,
       node.role AS role, node.text AS text, score
ORDER BY score DESC, id
