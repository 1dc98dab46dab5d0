// The title links of the kept anchors (issue 29), pasted into sentence/expand_paths and
// sentence/find_title_links. Binds `linked`: for each link seed {id, passage_id, keys, own,
// phrase}, at most $link_beam sentences, the most question-similar first, of either
// (a) a passage whose title the seed's sentence names (`TITLE:named`: a Topic whose key is one of
//     `keys`, the entity keys of the sentence's capitalised and quoted spans, not its own `own`;
//     the passage's core sentences), or
// (b) another passage whose sentence names the seed's passage title (`TITLE:names`: the fulltext
//     index asked for the title as a phrase, `phrase`, '' for none).
// Each entry is {source, id, kind, passage_id, position, text, title, relation, similarity}.
CALL () {
  CALL () {
    UNWIND $links AS seed
    MATCH (t:Topic) WHERE t.key IN seed.keys AND t.key <> seed.own
    MATCH (t)-[:HAS_CORE]->(c:Sentence)
    WHERE c.embedding IS NOT NULL
    WITH seed, c, vector.similarity.cosine(c.embedding, $embedding) AS similarity
    ORDER BY similarity DESC, c.id
    WITH seed, collect({c: c, similarity: similarity})[..$link_beam] AS best
    UNWIND best AS b
    RETURN seed, b.c AS c, b.similarity AS similarity, 'TITLE:named' AS relation
    UNION
    UNWIND $links AS seed
    WITH seed WHERE seed.phrase <> ''
    CALL db.index.fulltext.queryNodes('sentence_text_fulltext', seed.phrase, {limit: 50}) YIELD node
    WITH seed, node AS c
    WHERE c:Sentence AND c.passage_id <> seed.passage_id AND c.embedding IS NOT NULL
    WITH seed, c, vector.similarity.cosine(c.embedding, $embedding) AS similarity
    ORDER BY similarity DESC, c.id
    WITH seed, collect({c: c, similarity: similarity})[..$link_beam] AS best
    UNWIND best AS b
    RETURN seed, b.c AS c, b.similarity AS similarity, 'TITLE:names' AS relation
  }
  OPTIONAL MATCH (c)-[:FROM_PASSAGE]->(p:Passage)
  WITH seed, c, similarity, relation, p
  ORDER BY similarity DESC, c.id, seed.id
  RETURN collect({source: seed.id, id: c.id,
                  kind: CASE WHEN c:Core THEN 'core' ELSE 'supplementary' END,
                  passage_id: p.id, position: c.position, text: c.text, title: p.title,
                  relation: relation, similarity: similarity}) AS linked
}
