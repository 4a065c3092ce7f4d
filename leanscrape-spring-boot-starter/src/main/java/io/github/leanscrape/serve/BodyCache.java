package io.github.leanscrape.serve;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.leanscrape.exposition.BodyKind;
import org.jspecify.annotations.Nullable;

/**
 * Bodies served again to scrapes of their kind within a time to live, with the compressed
 * forms made of them. Holds a reference to each body it keeps, and gives it back when the
 * body expires or is replaced. A time to live of zero turns it off.
 *
 * @author leanscrape
 */
final class BodyCache {

	private static final int MAX_CACHED_KINDS = 16;

	private final long timeToLiveNanos;

	private final ConcurrentHashMap<BodyKind, Cached> bodies = new ConcurrentHashMap<>();

	BodyCache(Duration timeToLive) {
		this.timeToLiveNanos = Math.max(0, timeToLive.toNanos());
	}

	/**
	 * Return a live body of a kind, with a reference for the caller.
	 * @param kind the kind
	 * @return the body, or {@code null} when none is cached or it expired
	 */
	@Nullable ScrapeBody get(BodyKind kind) {
		if (this.timeToLiveNanos == 0) {
			return null;
		}
		Cached cached = this.bodies.get(kind);
		if (cached == null) {
			return null;
		}
		if (System.nanoTime() - cached.renderedAt > this.timeToLiveNanos) {
			if (this.bodies.remove(kind, cached)) {
				cached.body.release();
			}
			return null;
		}
		return cached.body.tryRetain() ? cached.body : null;
	}

	/**
	 * Keep a body just rendered, with a reference of the cache's own.
	 * @param kind its kind
	 * @param body the body
	 */
	void put(BodyKind kind, ScrapeBody body) {
		if (this.timeToLiveNanos == 0 || (this.bodies.size() >= MAX_CACHED_KINDS && !this.bodies.containsKey(kind))) {
			return;
		}
		body.retain();
		Cached previous = this.bodies.put(kind, new Cached(body, System.nanoTime()));
		if (previous != null) {
			previous.body.release();
		}
	}

	/**
	 * Drop the bodies past their time to live, which would otherwise hold memory until
	 * their kind is scraped again.
	 */
	void evictExpired() {
		if (this.timeToLiveNanos == 0 || this.bodies.isEmpty()) {
			return;
		}
		long now = System.nanoTime();
		for (Map.Entry<BodyKind, Cached> entry : this.bodies.entrySet()) {
			Cached cached = entry.getValue();
			if (now - cached.renderedAt > this.timeToLiveNanos && this.bodies.remove(entry.getKey(), cached)) {
				cached.body.release();
			}
		}
	}

	/**
	 * Drop every body, giving its chunks back to the pool.
	 */
	void clear() {
		for (BodyKind kind : this.bodies.keySet()) {
			Cached cached = this.bodies.remove(kind);
			if (cached != null) {
				cached.body.release();
			}
		}
	}

	private record Cached(ScrapeBody body, long renderedAt) {

	}

}
