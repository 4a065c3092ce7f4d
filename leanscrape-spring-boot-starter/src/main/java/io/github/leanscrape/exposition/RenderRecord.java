package io.github.leanscrape.exposition;

/**
 * What a renderer noted about a body while writing it, kept with the body
 * ({@link PooledBody#record()}), so that the next rendering of the same kind can copy the
 * parts whose inputs did not change instead of writing them again (see
 * {@link RenderInputs#copyFrom()}). Only the renderer that wrote it can read it.
 *
 * @author leanscrape
 */
public interface RenderRecord {

	/**
	 * Return how many of the body's bytes were copied from the last body of its kind
	 * rather than written.
	 * @return the bytes copied
	 */
	long copiedBytes();

	/**
	 * Called once, when the body the record describes was released for the last time, or
	 * its output discarded: no one reads the record any more, and its room may be reused.
	 */
	void bodyReleased();

}
