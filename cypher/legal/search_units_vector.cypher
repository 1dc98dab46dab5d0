// purpose: Plain vector top-k over all legal units (the latency reference for hybrid retrieval).
// mode: read
// param vector: list<float> -- query embedding
// param k: int -- number of units
// returns: id, score
// rows: plain
CALL db.index.vector.queryNodes('legalunit_embedding_vector', $k, $vector) YIELD node, score
RETURN node.id AS id, score
