package io.github.leanscrape.serve;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.leanscrape.exposition.BodyKind;
import org.jspecify.annotations.Nullable;

/**
 * Bodies served again to scrapes of their kind within a time to live (zero turns it off),
 * holding a reference to each until it expires or is replaced.
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

	// A live body with a reference for the caller, or null.
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

	// Expired bodies would otherwise hold memory until their kind is scraped again.
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
