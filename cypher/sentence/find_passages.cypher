// purpose: Passage-level retrieval (the passage "RO" baseline): top-k passages by vector similarity, with their sentences' ids.
// mode: read
// param embedding: list<float> -- the question's vector
// param k: int -- how many passages
// param candidates: int -- nearest neighbours searched in the vector index (at least k)
// returns: id, title, text, score, sentence_ids
// The index is approximate and searches about as many candidates as it is asked for: it is
// asked for $candidates (>= k) and the best k are kept, so a small k misses fewer true neighbours.
CALL db.index.vector.queryNodes('passage_embedding_vector', $candidates, $embedding) YIELD node, score
OPTIONAL MATCH (s:Sentence {passage_id: node.id})
WITH node, score, s ORDER BY s.position
RETURN node.id AS id, node.title AS title, node.text AS text, score, collect(s.id) AS sentence_ids
ORDER BY score DESC, id
LIMIT $k
