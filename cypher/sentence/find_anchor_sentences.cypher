// purpose: Candidate anchors: the top-K sentences by vector similarity to the question.
// mode: read
// param embedding: list<float> -- the question's vector
// param k: int -- how many sentences
// param candidates: int -- nearest neighbours searched in the vector index (at least k)
// returns: id, passage_id, position, role, text, title, score
// The index is approximate and searches about as many candidates as it is asked for: it is
// asked for $candidates (>= k) and the best k are kept, so a small k misses fewer true neighbours.
// The passage's title comes with each row, so the reasoner needs no separate title read.
CALL db.index.vector.queryNodes('sentence_embedding_vector', $candidates, $embedding) YIELD node, score
WITH node, score
ORDER BY score DESC, node.id
LIMIT $k
OPTIONAL MATCH (node)-[:FROM_PASSAGE]->(p:Passage)
RETURN node.id AS id, node.passage_id AS passage_id, node.position AS position,
       node.role AS role, node.text AS text, p.title AS title, score
ORDER BY score DESC, id
