package io.github.leanscrape.exposition.direct;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import io.github.leanscrape.exposition.direct.LabelEncoder.SortKey;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;

/**
 * Learns when counters, summaries and histograms were created: the protobuf format writes
 * a counter's with it, and the text formats write them all as {@code _created} samples
 * when client_java is told to. Micrometer's registry reads its clock when it registers a
 * meter and keeps the time only inside its collector, so the collector of a family is
 * asked once, the first time a scrape writes series of it whose time is not known, and
 * each series keeps its time from then on.
 *
 * @author leanscrape
 */
final class CreatedTimestamps {

	private final MicrometerInternals internals;

	CreatedTimestamps(MicrometerInternals internals) {
		this.internals = internals;
	}

	/**
	 * Make sure the created timestamps of a family's series are known.
	 * @param family the family
	 * @param series its series in this scrape
	 * @return {@code true} when every series' time is known, {@code false} when some
	 * could not be learned (a meter removed and added again in the meantime, a collector
	 * that cannot be found)
	 */
	boolean learn(Family family, Series[] series) {
		if (family.createdKnown == series || allKnown(series)) {
			// Checked against this scrape's own array, not a flag of the family: a series
			// added after the scrape took its plan, or learned by an overlapping scrape
			// still under way, cannot be taken for known.
			family.createdKnown = series;
			return true;
		}
		MultiCollector collector = this.internals.collector(family.collectorName);
		Map<ByteBuffer, Long> created = new HashMap<>();
		if (collector != null) {
			for (MetricSnapshot snapshot : collector.collect()) {
				// One collector's families have names of their own: the family's
				// snapshot is the one of its name.
				if (snapshot.getMetadata().getPrometheusName().equals(family.name)) {
					for (DataPointSnapshot point : snapshot.getDataPoints()) {
						created.put(ByteBuffer.wrap(LabelEncoder.encode(sortKey(point.getLabels()))),
								point.hasCreatedTimestamp() ? point.getCreatedTimestampMillis() : 0L);
					}
				}
			}
		}
		boolean known = true;
		for (Series each : series) {
			if (each.created == Series.UNKNOWN_CREATED) {
				Long millis = created.get(ByteBuffer.wrap(each.labels));
				if (millis != null) {
					each.created = millis;
				}
				else {
					known = false;
				}
			}
		}
		if (known) {
			family.createdKnown = series;
		}
		return known;
	}

	private static boolean allKnown(Series[] series) {
		for (Series each : series) {
			if (each.created == Series.UNKNOWN_CREATED) {
				return false;
			}
		}
		return true;
	}

	private static SortKey sortKey(Labels labels) {
		String[] names = new String[labels.size()];
		String[] values = new String[labels.size()];
		for (int i = 0; i < names.length; i++) {
			names[i] = labels.getName(i);
			values[i] = labels.getValue(i);
		}
		return new SortKey(names, values);
	}

}
