package io.github.leanscrape.reuse;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.leanscrape.exposition.BodyKind;
import org.jspecify.annotations.Nullable;

/**
 * The kinds kept, least recently rendered first: at most {@value #MAX_KINDS}, and none
 * idle for {@value #TIME_TO_LIVE_MINUTES} minutes. Guarded by the {@link KeptBodies};
 * what leaves it goes to the caller to release outside that lock.
 *
 * @author leanscrape
 */
final class KeptKinds {

	/** At most this many kinds are kept: each name filter is a kind of its own. */
	static final int MAX_KINDS = 4;

	private static final int TIME_TO_LIVE_MINUTES = 5;

	private static final long TIME_TO_LIVE_NANOS = TimeUnit.MINUTES.toNanos(TIME_TO_LIVE_MINUTES);

	private final Map<BodyKind, KeptKind> entries = new LinkedHashMap<>(8, 0.75f, true);

	// Counts as a use in the order kinds are evicted in.
	@Nullable KeptKind get(BodyKind kind) {
		return this.entries.get(kind);
	}

	// Beyond MAX_KINDS evicts the least recently rendered, one without a kept body first.
	void add(BodyKind kind, KeptKind entry, List<KeptKind> evicted) {
		this.entries.put(kind, entry);
		if (this.entries.size() <= MAX_KINDS) {
			return;
		}
		KeptKind evict = this.entries.values().iterator().next();
		for (KeptKind each : this.entries.values()) {
			if (each.body() == null) {
				evict = each;
				break;
			}
		}
		this.entries.values().remove(evict);
		evicted.add(evict);
	}

	void expire(long now, List<KeptKind> expired) {
		Iterator<KeptKind> entries = this.entries.values().iterator();
		while (entries.hasNext()) {
			KeptKind entry = entries.next();
			if (now - entry.renderedNanos > TIME_TO_LIVE_NANOS) {
				expired.add(entry);
				entries.remove();
			}
		}
	}

	void makeRoomFor(BodyKind kind, List<KeptBody> plains, List<KeptEncoding> forms) {
		for (Map.Entry<BodyKind, KeptKind> kept : this.entries.entrySet()) {
			if (!kept.getKey().equals(kind)) {
				kept.getValue().makeRoom(plains, forms);
			}
		}
	}

	List<KeptKind> removeAll() {
		List<KeptKind> removed = new ArrayList<>(this.entries.values());
		this.entries.clear();
		return removed;
	}

	long heldChunks() {
		long chunks = 0;
		for (KeptKind entry : this.entries.values()) {
			chunks += entry.heldChunks();
		}
		return chunks;
	}

	int withBody() {
		int kinds = 0;
		for (KeptKind entry : this.entries.values()) {
			kinds += (entry.body() != null) ? 1 : 0;
		}
		return kinds;
	}

}
