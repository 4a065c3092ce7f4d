package io.github.leanscrape.exposition;

import org.jspecify.annotations.Nullable;

/**
 * What a rendering may reuse: the kept body to copy unchanged blocks from, and whether
 * its own body is kept for the next rendering.
 *
 * @param copyFrom the last body of the rendering's kind, referenced by the caller until
 * the rendering is done, or {@code null}
 * @param kept whether the body written is kept, so worth recording
 * @author leanscrape
 */
public record RenderInputs(@Nullable PooledBody copyFrom, boolean kept) {

	/** Nothing to copy from, and nothing kept. */
	public static final RenderInputs NONE = new RenderInputs(null, false);

}
