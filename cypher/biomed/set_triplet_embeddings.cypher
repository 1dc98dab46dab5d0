// purpose: Store precomputed triplet embeddings (base64 text of the float32 little-endian vector of the verbalised triplet) and their key on edges listed by biomed/list_triplets_to_embed.
// mode: write
// param rows: list<map> -- {edge_id: string, embedding: string}
// param embedding_key: string -- model|dimension|verbalisation key the vectors were made with
// returns: count
UNWIND $rows AS row
MATCH ()-[r]->()
WHERE elementId(r) = row.edge_id
SET r.embedding = row.embedding, r.embedding_key = $embedding_key
RETURN count(r) AS count
