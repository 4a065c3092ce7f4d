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

	/** At most this many kinds are kept: each format and name filter is one. */
	static final int MAX_KINDS = 4;

	private static final int TIME_TO_LIVE_MINUTES = 5;

	private static final long TIME_TO_LIVE_NANOS = TimeUnit.MINUTES.toNanos(TIME_TO_LIVE_MINUTES);

	private final Map<BodyKind, KeptKind> kinds = new LinkedHashMap<>(8, 0.75f, true);

	// Counts as a use in the order kinds are evicted in.
	@Nullable KeptKind get(BodyKind kind) {
		return this.kinds.get(kind);
	}

	// Beyond MAX_KINDS evicts the least recently rendered that holds NOTHING (it may keep
	// forms); else the least recently rendered, whatever it holds. A TAKEN kind ranks as
	// holding a body, also when its rendering failed: until its next commit or its
	// expiry.
	void add(BodyKind kind, KeptKind keptKind, List<KeptKind> evicted) {
		this.kinds.put(kind, keptKind);
		if (this.kinds.size() <= MAX_KINDS) {
			return;
		}
		KeptKind evict = this.kinds.values().iterator().next();
		for (KeptKind each : this.kinds.values()) {
			if (each.holding() == KeptKind.Holding.NOTHING) {
				evict = each;
				break;
			}
		}
		this.kinds.values().remove(evict);
		evicted.add(evict);
	}

	void expire(long now, List<KeptKind> expired) {
		Iterator<KeptKind> iterator = this.kinds.values().iterator();
		while (iterator.hasNext()) {
			KeptKind keptKind = iterator.next();
			if (now - keptKind.renderedNanos > TIME_TO_LIVE_NANOS) {
				expired.add(keptKind);
				iterator.remove();
			}
		}
	}

	void makeRoomFor(BodyKind kind, List<KeptBody> plains, List<KeptForm> forms) {
		for (Map.Entry<BodyKind, KeptKind> kept : this.kinds.entrySet()) {
			if (!kept.getKey().equals(kind)) {
				kept.getValue().makeRoom(plains, forms);
			}
		}
	}

	List<KeptKind> removeAll() {
		List<KeptKind> removed = new ArrayList<>(this.kinds.values());
		this.kinds.clear();
		return removed;
	}

	long heldChunks() {
		long chunks = 0;
		for (KeptKind keptKind : this.kinds.values()) {
			chunks += keptKind.heldChunks();
		}
		return chunks;
	}

	int withBody() {
		int kinds = 0;
		for (KeptKind keptKind : this.kinds.values()) {
			kinds += (keptKind.body() != null) ? 1 : 0;
		}
		return kinds;
	}

}
