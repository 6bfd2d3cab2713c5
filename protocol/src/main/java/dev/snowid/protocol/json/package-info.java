/**
 * JSON's one home: every front end (the function, the local runner, the client, the agent, the
 * starter) reads with {@link dev.snowid.protocol.json.JsonReader} and writes with
 * {@link dev.snowid.protocol.json.JsonWriter}, over jackson-core's streaming parser and generator.
 * The agent carries jackson-core relocated, so an application's own Jackson is never touched.
 */
package dev.snowid.protocol.json;
