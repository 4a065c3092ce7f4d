package io.github.leanscrape.reuse;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * What is kept for one kind (format and name filter): its last body, or what stands in
 * for it, its last compressed form in each coding, and whether keeping them pays.
 *
 * @author leanscrape
 */
final class KeptKind {

	/**
	 * The last body, or {@code null} while it rests after being dropped for room, its
	 * gzip form stands in for it, or the rendering that replaces it reads it
	 * ({@link KeptBodies#take}).
	 */
	@Nullable KeptBody plain;

	/**
	 * The last body while the rendering that replaces it reads it
	 * ({@link KeptBodies#take}), still counted as kept for what it holds until it is
	 * replaced or released: that rendering's body shows what is kept, among the starter's
	 * own metrics. Not a reference of its own.
	 */
	@Nullable PooledBody taken;

	/** What is left of the last body where its gzip form stands in for it. */
	@Nullable DroppedBody dropped;

	/**
	 * Whether the kind's body was dropped for room: its gzip forms are then all
	 * compressed by segment, to stand in for its body.
	 */
	boolean crowded;

	final @Nullable KeptEncoding[] encodings = new KeptEncoding[ContentCoding.values().length];

	long renderedNanos;

	/** Whether keeping the kind's bodies pays, or it rests. */
	final KeepCredit credit = new KeepCredit();

}
