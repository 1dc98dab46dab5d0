// purpose: Rebuild the defined-term layer after a load: every numbered item "N. <term> là <definition>" of a definitions article (heading "Giải thích từ ngữ" or "Giải thích thuật ngữ") becomes (item unit)-[:DEFINES {definition}]->(:DefinedTerm {id: doc_id|key, key, term, doc_id}); the item unit is the article's clause of the item's number, or the article itself when it has no such clause (pre-split corpora). Terms no unit defines any more are removed.
// mode: write
// returns: terms, removed
CALL () {
  MATCH (:LegalUnit)-[old:DEFINES]->(:DefinedTerm)
  DELETE old
}
CALL () {
  MATCH (a:Article)
  WHERE any(h IN ['giải thích từ ngữ', 'giải thích thuật ngữ']
    WHERE toLower(coalesce(a.heading, '')) CONTAINS h)
  // The article's text holds its whole wording, one item per line: its number, the term (the
  // shortest run of text before " là " or " được hiểu là "), the definition (the rest).
  UNWIND apoc.text.regexGroups(coalesce(a.text, ''),
    '(?m)^[ \\t]*([0-9]+)[.)][ \\t]*(.{2,160}?)[ \\t]+(?:được hiểu là|là)[ \\t]+(.+)$') AS g
  // The item's clause defines the term; without a clause of that number, the article does.
  OPTIONAL MATCH (a)-[:CONTAINS]->(c:Clause {number: g[1]})
  WITH coalesce(c, a) AS x, apoc.text.replace(trim(g[2]), '^[\\p{Punct}“”]+|[\\p{Punct}“”]+$', '') AS term,
    trim(g[3]) AS definition
  WITH x, term, definition,
    apoc.text.join([w IN apoc.text.split(toLower(term), '(?U)\\s+') WHERE w <> ''], ' ') AS key
  WHERE key <> '' AND size(split(key, ' ')) <= 14
  MERGE (t:DefinedTerm {id: x.doc_id + '|' + key})
  SET t.key = key, t.term = term, t.doc_id = x.doc_id
  MERGE (x)-[r:DEFINES]->(t)
  SET r.definition = definition
  RETURN count(r) AS terms
}
CALL () {
  MATCH (t:DefinedTerm) WHERE NOT EXISTS { (t)<-[:DEFINES]-() }
  DETACH DELETE t
  RETURN count(*) AS removed
}
RETURN terms, removed
