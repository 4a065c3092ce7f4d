package io.github.leanscrape.serve;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.leanscrape.exposition.BodyKind;

/**
 * The renderings in flight, one per kind of body, so that overlapping scrapes of the same
 * kind share one: the first scrape starts it, the others join it and wait for its body.
 * Each scrape that joined gets a reference of its own to the body, so that none can find
 * it already released.
 *
 * @author leanscrape
 */
final class SharedRenderings {

	private final ConcurrentHashMap<BodyKind, Rendering> inFlight = new ConcurrentHashMap<>();

	/**
	 * Start a rendering of a kind, or join the one in flight.
	 * @param kind the kind
	 * @return the rendering, and whether the caller started it (then it must
	 * {@link #complete} or {@link #fail} it) or joined it (then it must {@link #await}
	 * it)
	 */
	Turn startOrJoin(BodyKind kind) {
		while (true) {
			Rendering rendering = new Rendering(kind);
			Rendering existing = this.inFlight.putIfAbsent(kind, rendering);
			if (existing == null) {
				return new Turn(rendering, true);
			}
			if (existing.join()) {
				return new Turn(existing, false);
			}
			// That rendering finished as this scrape arrived: look again.
		}
	}

	/**
	 * Hand the body of a rendering to every scrape that joined it. The caller keeps the
	 * body's own reference.
	 * @param rendering the rendering, as started by {@link #startOrJoin}
	 * @param body its body
	 */
	void complete(Rendering rendering, ScrapeBody body) {
		// No scrape joins once the rendering is closed; each one that joined before gets
		// a reference of its own.
		this.inFlight.remove(rendering.kind, rendering);
		int waiters = rendering.close();
		for (int i = 0; i < waiters; i++) {
			body.retain();
		}
		rendering.result.complete(body);
	}

	/**
	 * Fail a rendering, and every scrape that joined it with the same failure.
	 * @param rendering the rendering, as started by {@link #startOrJoin}
	 * @param failure why it failed
	 */
	void fail(Rendering rendering, Throwable failure) {
		this.inFlight.remove(rendering.kind, rendering);
		rendering.close();
		rendering.result.completeExceptionally(failure);
	}

	/**
	 * Wait for a rendering this scrape joined, and take the reference it holds for it. A
	 * scrape that gives up first releases that reference when the body arrives.
	 * @param rendering the rendering joined
	 * @param deadlineNanos the {@link System#nanoTime()} by which the body must be ready
	 * @return the body, whose reference the caller owns
	 * @throws ScrapeRejectedException when the deadline passes first, or the rendering
	 * was rejected
	 */
	static ScrapeBody await(Rendering rendering, long deadlineNanos) throws ScrapeRejectedException {
		try {
			return rendering.result.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			rendering.result.thenAccept(ScrapeBody::release);
			throw new ScrapeRejectedException("The rendering this scrape waited for did not finish before its timeout");
		}
		catch (InterruptedException ex) {
			rendering.result.thenAccept(ScrapeBody::release);
			Thread.currentThread().interrupt();
			throw new ScrapeRejectedException("Interrupted while waiting for a rendering");
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof ScrapeRejectedException rejected) {
				throw new ScrapeRejectedException(Objects.requireNonNullElse(rejected.getMessage(),
						"The rendering this scrape waited for was rejected"));
			}
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(cause);
		}
	}

	/**
	 * Return how many scrapes wait now for a rendering that another scrape started.
	 * @return the scrapes waiting
	 */
	int waiting() {
		int waiting = 0;
		for (Rendering rendering : this.inFlight.values()) {
			waiting += rendering.waiters();
		}
		return waiting;
	}

	/**
	 * A scrape's part in a rendering.
	 *
	 * @param rendering the rendering
	 * @param renders whether this scrape started it and renders, rather than joined it
	 */
	record Turn(Rendering rendering, boolean renders) {

	}

	/**
	 * A rendering in flight, and the scrapes that joined it. Joining counts a scrape in;
	 * closing, when the body is ready (or the rendering failed), stops further joins and
	 * tells how many joined, so that each can be given a reference to the body before it
	 * is released by anyone.
	 */
	static final class Rendering {

		/** The number of scrapes that joined; {@link #CLOSED} once closed. */
		private static final int CLOSED = -1;

		private final BodyKind kind;

		private final CompletableFuture<ScrapeBody> result = new CompletableFuture<>();

		private final AtomicInteger joined = new AtomicInteger();

		Rendering(BodyKind kind) {
			this.kind = kind;
		}

		boolean join() {
			int current;
			do {
				current = this.joined.get();
				if (current == CLOSED) {
					return false;
				}
			}
			while (!this.joined.compareAndSet(current, current + 1));
			return true;
		}

		int close() {
			return this.joined.getAndSet(CLOSED);
		}

		int waiters() {
			return Math.max(0, this.joined.get());
		}

	}

}
