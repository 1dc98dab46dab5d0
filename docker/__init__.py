"""Container and runtime assets: docker-compose for Neo4j, and the Maven pom of the local runtime."""
