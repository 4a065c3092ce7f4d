package io.github.leanscrape.reuse;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.RenderInputs;
import io.github.leanscrape.exposition.SegmentObserver;
import org.jspecify.annotations.Nullable;

/**
 * What one rendering of a kind may use of what is kept, and what it keeps afterwards: the
 * one way {@code serve} reaches {@link KeptBodies} for a rendering, opened by
 * {@link KeptBodies#lease} and closed in one place. The lease alone owns the kind's body
 * where it took it: the rendering reads it as it writes and gives it back to the pool
 * behind it ({@link ReplacedBody}).
 * <p>
 * In order: {@link #start()} once the rendering is admitted, which gives the renderer's
 * inputs, then {@link #observer()} for its output, {@link #commit} with the new body, and
 * {@link #close()} in every case. Closed before it started, a taken body goes back to
 * what is kept, as it was.
 *
 * @author leanscrape
 */
public final class RenderLease implements AutoCloseable {

	private final KeptBodies kept;

	private final BodyKind kind;

	/** The kind's body, taken for this rendering alone, or {@code null}. */
	private @Nullable KeptBody taken;

	private boolean started;

	/** The kind's body offered to copy from, where none was taken. */
	private @Nullable KeptBody previous;

	private @Nullable ReplacedBody replaced;

	private final SegmentVersions segmentVersions;

	RenderLease(KeptBodies kept, BodyKind kind, @Nullable KeptBody taken, SegmentVersions segmentVersions) {
		this.kept = kept;
		this.kind = kind;
		this.taken = taken;
		this.segmentVersions = segmentVersions;
	}

	/**
	 * Return how many chunks this rendering gives back as it goes, reading the body it
	 * took: what it may leave out of what it reserves.
	 * @return the chunks, {@code 0} where it took none
	 */
	public long chunksGivenBackAsItGoes() {
		KeptBody taken = this.taken;
		return (taken != null && !taken.body.isReleased()) ? ReplacedBody.givenBackChunks(taken.body) : 0;
	}

	/**
	 * Return how many chunks the body this rendering took holds.
	 * @return the chunks, {@code 0} where it took none
	 */
	public long takenChunks() {
		KeptBody taken = this.taken;
		return (taken != null && !taken.body.isReleased()) ? taken.body.chunkCount() : 0;
	}

	/**
	 * Give the body this rendering took back to the pool at once, before it starts: the
	 * last way to make room for it. It then renders as a kind with no body kept.
	 */
	public void giveBackTakenBody() {
		if (this.started) {
			throw new IllegalStateException("The rendering has started");
		}
		KeptBody taken = this.taken;
		if (taken != null) {
			taken.release();
		}
	}

	/**
	 * Decide what the rendering copies from and whether its body is kept: the body this
	 * lease took, else the kind's kept body.
	 * @return the renderer's inputs, valid until the lease is closed
	 */
	public RenderInputs start() {
		if (this.started) {
			throw new IllegalStateException("Started already");
		}
		this.started = true;
		KeptBodies.Offer offer = this.kept.offer(this.kind, this.taken);
		this.previous = offer.previous();
		KeptBody taken = this.taken;
		if (this.previous == null && taken != null && !taken.body.isReleased()) {
			this.replaced = new ReplacedBody(taken, this.segmentVersions);
		}
		return new RenderInputs(copyFrom(), offer.keeps());
	}

	private @Nullable PooledBody copyFrom() {
		KeptBody own = (this.replaced != null) ? this.taken : this.previous;
		return (own != null) ? own.body : null;
	}

	/**
	 * Return what reads the body taken as the rendering writes, told of each segment.
	 * @return the observer, or {@code null} where no body was taken
	 */
	public @Nullable SegmentObserver observer() {
		assertStarted();
		return this.replaced;
	}

	/**
	 * Keep the new body in place of the last one; while the kind rests, keep nothing.
	 * @param body the new body, whose reference stays the caller's; what is kept takes
	 * one of its own
	 */
	public void commit(PooledBody body) {
		assertStarted();
		ReplacedBody replaced = this.replaced;
		KeptBody taken = this.taken;
		if (replaced != null && taken != null) {
			replaced.finish();
			this.kept.replaced(this.kind, body, taken, replaced.versions(), replaced.unchangedShare(body.length()));
		}
		else {
			this.kept.rendered(this.kind, body, this.previous);
		}
	}

	/**
	 * Release what the lease holds; a body taken and not read goes back to what is kept.
	 */
	@Override
	public void close() {
		KeptBody taken = this.taken;
		KeptBody previous = this.previous;
		this.taken = null;
		this.previous = null;
		try {
			if (taken != null) {
				if (this.started) {
					taken.release();
				}
				else {
					this.kept.giveBack(this.kind, taken);
				}
			}
		}
		finally {
			if (previous != null) {
				previous.release();
			}
		}
	}

	private void assertStarted() {
		if (!this.started) {
			throw new IllegalStateException("Not started");
		}
	}

}
