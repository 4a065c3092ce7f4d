package io.github.leanscrape.exposition;

/**
 * What a renderer noted about a body while writing it, for the next rendering of the kind
 * to copy unchanged blocks. Only the renderer that wrote it reads it.
 *
 * @author leanscrape
 */
public interface RenderRecord {

	/**
	 * Called exactly once, when the body is released or its output discarded; its room
	 * may be reused.
	 */
	void bodyReleased();

}
