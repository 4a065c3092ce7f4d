package io.github.leanscrape.exposition.direct;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.direct.MeterIndex.ScrapePlan;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.SnapshotEscaper;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * The families of a direct scrape that the reference path writes: collected from the
 * meter registry's own collectors for the names the direct path leaves alone (see
 * {@link ShapeOfMeter}), and written one by one by client_java's writer, in their place
 * among the direct families. In text 0.0.4 with created timestamps, their
 * {@code _created} families are kept apart and written after every other family, where
 * client_java puts them.
 *
 * @author leanscrape
 */
final class ReferenceFamilies {

	static final boolean COLLECTORS_DESCRIBE_FAMILIES = describesFamilies();

	private static final byte[] NO_BYTES = new byte[0];

	private final MicrometerInternals internals;

	private final ReferenceRenderer reference;

	private final boolean createdTimestamps;

	private final FallbackPolicy fallbacks;

	/**
	 * Create the reference families of a renderer.
	 * @param internals what the registries' public API does not tell
	 * @param reference the reference renderer of the registry that is scraped
	 * @param createdTimestamps whether client_java writes created timestamps
	 * @param fallbacks counts the families written here, and the scrapes that cannot be
	 * merged, by reason
	 */
	ReferenceFamilies(MicrometerInternals internals, ReferenceRenderer reference, boolean createdTimestamps,
			FallbackPolicy fallbacks) {
		this.internals = internals;
		this.reference = reference;
		this.createdTimestamps = createdTimestamps;
		this.fallbacks = fallbacks;
	}

	/**
	 * Collect the families that client_java writes, sorted by name: those of the meter
	 * names left to the reference path, and those of collectors registered outside
	 * Micrometer, each counted by its reason. Return {@code null}, the scrape counted as
	 * one that goes to the reference path whole, when one of them shares its name with
	 * another family (client_java fails such a scrape), or when the collectors cannot be
	 * told apart.
	 * @param plan the scrape's plan
	 * @param includedNames the families to include, or {@code null} for all
	 * @param format the scrape's format
	 * @return the families, or {@code null} when the scrape cannot be merged
	 */
	@Nullable List<MetricSnapshot> collect(ScrapePlan plan, @Nullable Set<String> includedNames, PrometheusOutputFormat format) {
		List<MetricSnapshot> foreign = this.internals.collectForeign(includedNames);
		if (foreign == null) {
			this.fallbacks.wholeScrape(FallbackReason.COLLECTORS_NOT_TOLD_APART, format, null);
			return null;
		}
		String[] names = plan.referenceNames();
		if (names.length == 0 && foreign.isEmpty()) {
			return List.of();
		}
		List<MetricSnapshot> snapshots = new ArrayList<>(foreign);
		// How many families each name gave, counted once the scrape is known to merge.
		int[] counts = new int[names.length];
		// Collected as client_java's registry collects for Spring Boot's endpoint: with
		// the name filter, so that a collector may skip the families left out.
		Predicate<String> filter = (includedNames != null) ? includedNames::contains : null;
		for (int i = 0; i < names.length; i++) {
			MultiCollector collector = this.internals.collector(names[i]);
			if (collector == null || (filter != null && !mayInclude(collector, filter))) {
				continue;
			}
			MetricSnapshots collected;
			try {
				collected = (filter != null) ? collector.collect(filter) : collector.collect();
			}
			catch (RuntimeException ex) {
				// client_java refuses the name's families (a reserved label, labels that
				// collide): the scrape fails, as Spring Boot's fails, but says why the
				// name went to the reference path, counted as one family.
				this.fallbacks.families(plan.referenceReasons()[i], 1, plan, foreign);
				throw ex;
			}
			for (MetricSnapshot snapshot : collected) {
				if (includedNames == null || includedNames.contains(name(snapshot))) {
					snapshots.add(snapshot);
					counts[i]++;
				}
			}
		}
		snapshots.sort((a, b) -> name(a).compareTo(name(b)));
		for (int i = 0; i < snapshots.size(); i++) {
			String name = name(snapshots.get(i));
			if (plan.family(name) != null || (i > 0 && name.equals(name(snapshots.get(i - 1))))) {
				this.fallbacks.wholeScrape(FallbackReason.FAMILY_OF_MORE_THAN_ONE_SOURCE, format, name);
				return null;
			}
		}
		if (!foreign.isEmpty()) {
			this.fallbacks.families(FallbackReason.COLLECTORS_OUTSIDE_MICROMETER, foreign.size(), plan, foreign);
		}
		for (int i = 0; i < names.length; i++) {
			if (counts[i] > 0) {
				this.fallbacks.families(plan.referenceReasons()[i], counts[i], plan, foreign);
			}
		}
		return snapshots;
	}

	/**
	 * Return whether client_java's registry collects the registry's collector of a name
	 * for a scrape with a name filter: then it builds every family of the collector, also
	 * those the filter leaves out, and whatever fails in them fails the scrape.
	 * @param collectorName the collector's name
	 * @param filter the families to include
	 * @return {@code true} when the collector is collected
	 */
	boolean isCollected(String collectorName, Predicate<String> filter) {
		MultiCollector collector = this.internals.collector(collectorName);
		return collector != null && mayInclude(collector, filter);
	}

	/**
	 * Return whether a collector may write a family the filter includes, as client_java's
	 * registry asks before it collects: by the names of the families it described when it
	 * was registered and the names it gives; a collector that gives none may.
	 * @param collector the collector
	 * @param filter the families to include
	 * @return {@code false} when the registry would not collect it
	 */
	private boolean mayInclude(MultiCollector collector, Predicate<String> filter) {
		List<String> registered = this.internals.registeredNames(collector);
		List<String> names = collector.getPrometheusNames();
		if (registered.isEmpty() && names.isEmpty()) {
			return true;
		}
		for (String name : registered) {
			if (filter.test(name)) {
				return true;
			}
		}
		for (String name : names) {
			if (filter.test(name)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return whether collectors describe their families
	 * ({@code getMetricFamilyDescriptors}, client_java 1.5 and later; Spring Boot 4.0
	 * manages 1.4), asked once of a collector of no family, without reflection.
	 * @return {@code true} when the method exists
	 */
	private static boolean describesFamilies() {
		try {
			MultiCollector none = MetricSnapshots::new;
			return none.getMetricFamilyDescriptors() != null;
		}
		catch (NoSuchMethodError ex) {
			return false;
		}
	}

	static String name(MetricSnapshot snapshot) {
		return snapshot.getMetadata().getPrometheusName();
	}

	/**
	 * Write one family as client_java writes it, without the end of the exposition (one
	 * delimited message in protobuf) and without the {@code _created} family that text
	 * 0.0.4 writes after every other family ({@link #writeCreated}).
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
		else if (format == PrometheusOutputFormat.CONTENT_TYPE_004 && this.createdTimestamps) {
			// client_java wrote the _created family right after this one: it goes
			// after the last family instead.
			length -= createdFamily(snapshot).length;
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

	/**
	 * Write the {@code _created} family of one family in text 0.0.4, as client_java
	 * writes it after every other family when it is told to include created timestamps.
	 * @param snapshot the family
	 * @param out the output
	 * @param reports where a full scrape keeps the family's figures, or {@code null}
	 * @param index the family's place in {@code reports}
	 * @return the sample lines written
	 * @throws IOException when client_java's writer fails
	 */
	int writeCreated(MetricSnapshot snapshot, ChunkedOutput out, @Nullable FamilyReport @Nullable [] reports, int index)
			throws IOException {
		if (snapshot.getDataPoints().isEmpty()) {
			return 0;
		}
		byte[] bytes = createdFamily(snapshot);
		out.write(bytes);
		int lines = sampleLines(bytes, bytes.length);
		FamilyReport report = (reports != null) ? reports[index] : null;
		if (reports != null && report != null) {
			reports[index] = new FamilyReport(report.name(), report.series() + lines, report.bytes() + bytes.length,
					report.renderer());
		}
		return lines;
	}

	/**
	 * Return the {@code _created} family that client_java's text 0.0.4 writer writes for
	 * a family, as its {@code write} does: from the escaped snapshot, in the default
	 * escaping scheme.
	 * @param snapshot the family
	 * @return the family's bytes, empty when it has none
	 * @throws IOException when client_java's writer fails
	 */
	private byte[] createdFamily(MetricSnapshot snapshot) throws IOException {
		if (!(snapshot instanceof CounterSnapshot || snapshot instanceof HistogramSnapshot
				|| snapshot instanceof SummarySnapshot)) {
			// The only kinds client_java writes a _created family for.
			return NO_BYTES;
		}
		PrometheusTextFormatWriter writer = (PrometheusTextFormatWriter) this.reference
			.writer(PrometheusOutputFormat.CONTENT_TYPE_004);
		StringWriter created = new StringWriter();
		writer.writeCreated(created, SnapshotEscaper.escapeMetricSnapshot(snapshot, EscapingScheme.DEFAULT),
				EscapingScheme.DEFAULT);
		return created.toString().getBytes(StandardCharsets.UTF_8);
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
