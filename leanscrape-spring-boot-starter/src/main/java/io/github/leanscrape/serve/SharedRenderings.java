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
 * The renderings in flight, one per kind, shared by overlapping scrapes of that kind;
 * each scrape that joined gets its own reference, so none finds the body released.
 *
 * @author leanscrape
 */
final class SharedRenderings {

	private final ConcurrentHashMap<BodyKind, Rendering> inFlight = new ConcurrentHashMap<>();

	// Whoever renders must complete or fail the rendering; whoever joined awaits it.
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

	// Every scrape that joined gets a reference; the caller keeps its own.
	void complete(Rendering rendering, ScrapeBody body) {
		this.inFlight.remove(rendering.kind, rendering);
		int waiters = rendering.close();
		for (int i = 0; i < waiters; i++) {
			body.retain();
		}
		rendering.result.complete(body);
	}

	void fail(Rendering rendering, Throwable failure) {
		this.inFlight.remove(rendering.kind, rendering);
		rendering.close();
		rendering.result.completeExceptionally(failure);
	}

	// A scrape that gives up releases the reference held for it when the body arrives.
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

	int waiting() {
		int waiting = 0;
		for (Rendering rendering : this.inFlight.values()) {
			waiting += rendering.waiters();
		}
		return waiting;
	}

	// A scrape's part in a rendering: renders when it started it, rather than joined it.
	record Turn(Rendering rendering, boolean renders) {

	}

	// Closing it stops joins and tells how many joined, so that each gets a reference to
	// the body before anyone can release it.
	static final class Rendering {

		private static final int CLOSED = -1;

		private final BodyKind kind;

		private final CompletableFuture<ScrapeBody> result = new CompletableFuture<>();

		// Scrapes that joined; CLOSED once closed.
		private final AtomicInteger joined = new AtomicInteger();

		Rendering(BodyKind kind) {
			this.kind = kind;
		}

		boolean join() {
			return this.joined.getAndUpdate((count) -> (count != CLOSED) ? count + 1 : CLOSED) != CLOSED;
		}

		int close() {
			return this.joined.getAndSet(CLOSED);
		}

		int waiters() {
			return Math.max(0, this.joined.get());
		}

	}

}
