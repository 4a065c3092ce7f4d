package io.github.leanscrape.exposition.direct;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.FamilyReport;
import io.github.leanscrape.exposition.ReferenceRenderer;
import io.github.leanscrape.exposition.direct.MeterIndex.ScrapePlan;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * The families of a direct scrape that the reference path writes: collected from the
 * meter registry's own collectors for the names the direct path leaves alone (see
 * {@link ShapeOfMeter}), and written one by one by client_java's writer, in their place
 * among the direct families.
 *
 * @author leanscrape
 */
final class ReferenceFamilies {

	private final MicrometerInternals internals;

	private final ReferenceRenderer reference;

	ReferenceFamilies(MicrometerInternals internals, ReferenceRenderer reference) {
		this.internals = internals;
		this.reference = reference;
	}

	/**
	 * Collect the families that client_java writes, sorted by name: those of the meter
	 * names left to the reference path, and those of collectors registered outside
	 * Micrometer. Return {@code null} when one of them shares its name with another
	 * family (client_java fails such a scrape), or when the collectors cannot be told
	 * apart.
	 * @param plan the scrape's plan
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the families, or {@code null} when the scrape cannot be merged
	 */
	@Nullable List<MetricSnapshot> collect(ScrapePlan plan, @Nullable Set<String> includedNames) {
		List<MetricSnapshot> foreign = this.internals.collectForeign(includedNames);
		if (foreign == null) {
			return null;
		}
		String[] names = plan.referenceNames();
		if (names.length == 0 && foreign.isEmpty()) {
			return List.of();
		}
		List<MetricSnapshot> snapshots = new ArrayList<>(foreign);
		for (String name : names) {
			MultiCollector collector = this.internals.collector(name);
			if (collector == null) {
				continue;
			}
			for (MetricSnapshot snapshot : collector.collect()) {
				if (includedNames == null || includedNames.contains(name(snapshot))) {
					snapshots.add(snapshot);
				}
			}
		}
		snapshots.sort((a, b) -> name(a).compareTo(name(b)));
		for (int i = 0; i < snapshots.size(); i++) {
			String name = name(snapshots.get(i));
			if (plan.family(name) != null || (i > 0 && name.equals(name(snapshots.get(i - 1))))) {
				return null;
			}
		}
		return snapshots;
	}

	static String name(MetricSnapshot snapshot) {
		return snapshot.getMetadata().getPrometheusName();
	}

	/**
	 * Write one family as client_java writes it, without the end of the exposition: one
	 * delimited message in protobuf.
	 * @param snapshot the family
	 * @param format the format
	 * @param out the output
	 * @param reports where a full scrape keeps the family's figures, or {@code null}
	 * @param index the family's place in {@code reports}
	 * @return the sample lines written
	 * @throws IOException when client_java's writer fails
	 */
	int write(MetricSnapshot snapshot, PrometheusOutputFormat format, ChunkedOutput out,
			@Nullable FamilyReport @Nullable [] reports, int index) throws IOException {
		if (snapshot.getDataPoints().isEmpty()) {
			return 0;
		}
		ExpositionFormatWriter writer = this.reference.writer(format);
		ByteArrayOutputStream family = new ByteArrayOutputStream(256);
		writer.write(family, new MetricSnapshots(snapshot));
		byte[] bytes = family.toByteArray();
		int length = bytes.length;
		if (format == PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100) {
			// client_java ends every OpenMetrics exposition with # EOF; this is one
			// family of a larger exposition.
			length -= TextFormat.EOF.length;
		}
		out.write(bytes, 0, length);
		// Protobuf has no lines: its data points are counted instead.
		int lines = (format == PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF) ? snapshot.getDataPoints().size()
				: sampleLines(bytes, length);
		if (reports != null) {
			reports[index] = new FamilyReport(name(snapshot), lines, length, "reference");
		}
		return lines;
	}

	private static int sampleLines(byte[] bytes, int length) {
		int lines = 0;
		boolean lineStart = true;
		for (int i = 0; i < length; i++) {
			if (lineStart && bytes[i] != '#') {
				lines++;
			}
			lineStart = bytes[i] == '\n';
		}
		return lines;
	}

}
