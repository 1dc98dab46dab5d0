// purpose: Graph-native context pairs for the dataset builder: an article and an article it REFERS_TO (itself or through one of its clauses or points, to that article or a unit inside it; other documents first), and an amending unit and the unit it AMENDS; both texts at least min_chars characters.
// mode: read
// param min_chars: int -- shortest text of either side
// param limit: int -- most pairs per kind
// returns: kind, a_id, a_title, a_text, b_id, b_title, b_text
CALL () {
  MATCH (a:Article)-[:CONTAINS*0..3]->(:LegalUnit)-[:REFERS_TO]->(:LegalUnit)<-[:CONTAINS*0..3]-(b:Article)
  WHERE NOT a:UnitVersion AND NOT b:UnitVersion AND a.id <> b.id
    AND size(coalesce(a.text, '')) >= $min_chars AND size(coalesce(b.text, '')) >= $min_chars
  WITH DISTINCT a, b ORDER BY CASE WHEN a.doc_id = b.doc_id THEN 1 ELSE 0 END, a.id, b.id
  LIMIT $limit
  RETURN 'refers_to' AS kind, a, b
  UNION ALL
  MATCH (a:LegalUnit)-[:AMENDS]->(b:LegalUnit)
  WHERE NOT a:UnitVersion AND NOT b:UnitVersion
    AND size(coalesce(a.text, '')) >= $min_chars AND size(coalesce(b.text, '')) >= $min_chars
  WITH a, b ORDER BY a.id, b.id
  LIMIT $limit
  RETURN 'amends' AS kind, a, b
}
OPTIONAL MATCH (da:LegalNode {id: a.doc_id}) WHERE da:Document
OPTIONAL MATCH (db:LegalNode {id: b.doc_id}) WHERE db:Document
RETURN kind, a.id AS a_id, coalesce(da.title, da.number, a.doc_id) AS a_title, a.text AS a_text,
  b.id AS b_id, coalesce(db.title, db.number, b.doc_id) AS b_title, b.text AS b_text
