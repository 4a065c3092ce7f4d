package io.github.leanscrape.exposition;

import org.jspecify.annotations.Nullable;

/**
 * What a rendering is given besides its format and name filter, to reuse what did not
 * change: the last body it may copy unchanged blocks of series from, and whether the body
 * it writes is kept, for the next rendering to copy from.
 *
 * @param copyFrom the last body of the rendering's kind, or {@code null}; the caller
 * holds a reference to it until the rendering is done. Where the renderer finds in its
 * {@link PooledBody#record() record} that part of it was written from exactly the values
 * it reads now, into bytes this format writes alike, it may copy those bytes rather than
 * write them again
 * @param kept whether the body written is kept for the next rendering of its kind: worth
 * recording what it holds, even with nothing to copy from now
 * @author leanscrape
 */
public record RenderInputs(@Nullable PooledBody copyFrom, boolean kept) {

	/** Nothing to copy from, and nothing kept. */
	public static final RenderInputs NONE = new RenderInputs(null, false);

}
