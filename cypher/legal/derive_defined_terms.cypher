// purpose: Rebuild the defined-term layer after a load: every numbered item "N. <term> là <definition>" of a definitions article (heading "Giải thích từ ngữ" or "Giải thích thuật ngữ"), in its text, in clauses inserted later or in new wordings of its clauses, becomes (unit)-[:DEFINES {definition}]->(:DefinedTerm {id: doc_id|key, key, term, doc_id}) for the article's document; the unit is the article's clause of the item's number (the article itself when it has none, as in pre-split corpora), the inserted clause or the UnitVersion. Terms no unit defines any more are removed.
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: terms, removed
CALL () {
  MATCH (:LegalUnit)-[old:DEFINES]->(t:DefinedTerm)
  WHERE $doc_ids IS NULL OR t.doc_id IN $doc_ids
  DELETE old
}
CALL () {
  MATCH (a:Article)
  WHERE ($doc_ids IS NULL OR a.doc_id IN $doc_ids) AND any(h IN ['giải thích từ ngữ', 'giải thích thuật ngữ']
    WHERE toLower(coalesce(a.heading, '')) CONTAINS h)
  // Where items are written: the article's text (its whole enacted wording), clauses inserted
  // later with wording of their own, and new wordings (UnitVersion) of its clauses.
  CALL (a) {
    RETURN a AS src
    UNION
    MATCH (a)-[:CONTAINS]->(c:Clause) WHERE c.supplemented_by IS NOT NULL AND c.text IS NOT NULL
    RETURN c AS src
    UNION
    MATCH (a)-[:CONTAINS]->(:Clause)<-[:VERSION_OF]-(v:UnitVersion)
    RETURN v AS src
  }
  // One item per line: its number, the term (the shortest run of text before " là " or
  // " được hiểu là ", without a parenthesis: "X (sau đây gọi là Y) bao gồm" defines nothing),
  // the definition (the rest of the line).
  UNWIND apoc.text.regexGroups(coalesce(src.text, ''),
    '(?m)^[ \\t]*([0-9]+[a-zđ]?)[.)][ \\t]*([^\\n(]{2,160}?)[ \\t]+(?:được hiểu là|là)[ \\t]+(.+)$') AS g
  // An item of the article's text is defined by its clause (the article when it has no clause
  // of that number); an item of an inserted clause or of a new wording, by that unit.
  OPTIONAL MATCH (a)-[:CONTAINS]->(c:Clause {number: g[1]}) WHERE src = a
  WITH a, coalesce(c, src) AS x,
    apoc.text.replace(trim(g[2]), '^[\\p{Punct}“”]+|[\\p{Punct}“”]+$', '') AS term,
    trim(g[3]) AS definition
  WITH a, x, term, definition,
    apoc.text.join([w IN apoc.text.split(toLower(term), '(?U)\\s+') WHERE w <> ''], ' ') AS key
  WHERE key <> '' AND size(split(key, ' ')) <= 20
  MERGE (t:DefinedTerm {id: a.doc_id + '|' + key})
  SET t.key = key, t.term = term, t.doc_id = a.doc_id
  MERGE (x)-[r:DEFINES]->(t)
  SET r.definition = definition
  RETURN count(r) AS terms
}
CALL () {
  MATCH (t:DefinedTerm) WHERE ($doc_ids IS NULL OR t.doc_id IN $doc_ids)
    AND NOT EXISTS { (t)<-[:DEFINES]-() }
  DETACH DELETE t
  RETURN count(*) AS removed
}
RETURN terms, removed
