// purpose: Candidate anchors: the top-K sentences by vector similarity to the question.
// mode: read
// param embedding: list<float> -- the question's vector
// param k: int -- how many sentences
// param candidates: int -- nearest neighbours searched in the vector index (at least k)
// returns: id, passage_id, position, role, text, score
// The index is approximate and searches about as many candidates as it is asked for: it is
// asked for $candidates (>= k) and the best k are kept, so a small k misses fewer true neighbours.
CALL db.index.vector.queryNodes('sentence_embedding_vector', $candidates, $embedding) YIELD node, score
RETURN node.id AS id, node.passage_id AS passage_id, node.position AS position,
       node.role AS role, node.text AS text, score
ORDER BY score DESC, id
LIMIT $k
