package io.github.leanscrape.exposition.direct;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.support.FrozenClock;
import io.github.leanscrape.support.OwnCodeTests;
import io.github.leanscrape.support.RawOutput;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.vm.VM;
import org.openjdk.jol.vm.VirtualMachine;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the direct path keeps in memory for its series, measured with JOL on a registry of
 * 100,000 counters: the index's own objects (families, their series arrays, series and
 * their pre-encoded label bytes, the maps that find them), not the meters, which the
 * registry keeps anyway. Per series, the pre-encoded bytes must cost less than the
 * series' text line, and what finds and orders them less than 80 bytes more; a removed
 * meter must leave nothing behind, whether or not scrapes come.
 */
@Tag(OwnCodeTests.TAG)
class RetainedMemoryTests {

	private static final int SERIES = 100_000;

	private static final int COUNTERS_PER_FAMILY = 50;

	private static final int CHURN = 20_000;

	private static final String[] METHODS = { "GET", "POST", "PUT", "DELETE" };

	private static final String[] STATUSES = { "200", "201", "204", "400", "404", "500" };

	private static final String[] COUNTER_NAMES = { "http.client.requests", "cache.gets", "messages.received",
			"db.queries" };

	@Test
	void preEncodedBytesCostLessThanTheTextLineAndRemovedMetersReleaseTheirs() throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), new FrozenClock());
		DirectRenderer renderer = renderer(registry);
		List<Counter> counters = addCounters(registry, SERIES);
		// The first scrape publishes every family's series array.
		byte[] body = scrape(renderer);
		assertThat(renderer.directScrapes()).isEqualTo(1);
		LineStats lines = LineStats.of(body);
		assertThat(lines.samples).isEqualTo(SERIES);

		MeterIndex index = index(renderer);
		Set<Object> meters = reachableFromMeters(counters);
		assertThat(meters).as("the meters do not lead back to the index").doesNotContain(index);
		Retained retained = Retained.of(index, meters);
		double perSeries = (double) retained.totalBytes / SERIES;
		double encodedPerSeries = (double) retained.encodedBytes / SERIES;
		double line = lines.averageSampleLine();
		RawOutput raw = new RawOutput();
		raw.printf("Direct path, %,d counter series in %,d families (3 labels each), JVM %s, %s:%n", SERIES,
				SERIES / COUNTERS_PER_FAMILY, Runtime.version(), compressedOops() ? "compressed oops" : "wide oops");
		raw.printf("  text sample line: %.1f bytes on average%n", line);
		raw.printf("  pre-encoded bytes (label bytes, families' metadata and names): %.1f bytes per series%n",
				encodedPerSeries);
		raw.printf("  everything the index holds: %.1f bytes per series (%,d bytes)%n", perSeries, retained.totalBytes);
		raw.printf("%s%n", retained.byClass());
		assertThat(retained.series).isEqualTo(SERIES);
		// The pre-encoded bytes cost less than the line they stand for.
		assertThat(encodedPerSeries).as("pre-encoded bytes per series against the average text line").isLessThan(line);
		// What finds and orders them: a series object (40 bytes, 8 of them the created
		// timestamp protobuf writes, 4 the counter's adder that scrapes read), its slots
		// in the meter map (12 to 24 bytes) and in the family's array (4 bytes), a share
		// of the family's own objects.
		assertThat(perSeries - encodedPerSeries).as("bytes per series beyond the pre-encoded ones").isLessThan(80);

		// Half the meters go: once the next scrape has published the families, only the
		// other half is held.
		List<Counter> kept = new ArrayList<>();
		for (int i = 0; i < counters.size(); i++) {
			if (i % 2 == 1) {
				registry.remove(counters.get(i));
			}
			else {
				kept.add(counters.get(i));
			}
		}
		assertThat(LineStats.of(scrape(renderer)).samples).isEqualTo(kept.size());
		Retained half = Retained.of(index, meters);
		assertThat(half.series).isEqualTo(kept.size());
		assertThat(half.totalBytes).isLessThan(retained.totalBytes * 3 / 4);

		// All of them go: the index holds no series, and next to nothing else.
		for (Counter counter : kept) {
			registry.remove(counter);
		}
		assertThat(LineStats.of(scrape(renderer)).samples).isZero();
		Retained none = Retained.of(index, meters);
		raw.printf("  after removing every meter: %,d bytes, %d series%n", none.totalBytes, none.series);
		raw.write("retained-memory", "./mvnw -B -pl leanscrape-spring-boot-starter verify -Dtest=RetainedMemoryTests");
		assertThat(none.series).isZero();
		assertThat(none.totalBytes).isLessThan(retained.totalBytes / 100);
	}

	@Test
	void removedMetersAreReleasedEvenWhenNobodyScrapes() throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), new FrozenClock());
		DirectRenderer renderer = renderer(registry);
		// One meter keeps the family alive while others come and go, and no scrape comes
		// to bring the family up to date.
		Counter stable = Counter.builder("jobs.completed").tag("job", "stable").register(registry);
		List<Counter> all = new ArrayList<>();
		all.add(stable);
		// A scrape of meters removed right after: its plan must not keep them either.
		List<Counter> scraped = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			scraped.add(Counter.builder("jobs.completed").tag("job", "scraped-" + i).register(registry));
		}
		assertThat(LineStats.of(scrape(renderer)).samples).isEqualTo(1001);
		for (Counter counter : scraped) {
			registry.remove(counter);
		}
		all.addAll(scraped);
		for (int i = 0; i < CHURN; i++) {
			Counter counter = Counter.builder("jobs.completed").tag("job", "job-" + i).register(registry);
			registry.remove(counter);
			if (i % 1000 == 0) {
				all.add(counter);
			}
		}
		MeterIndex index = index(renderer);
		Retained retained = Retained.of(index, reachableFromMeters(all));
		System.out.printf("  %,d meters added and removed without a scrape: %,d bytes, %d series held%n", CHURN,
				retained.totalBytes, retained.series);
		assertThat(retained.series).isLessThan(100);
		assertThat(retained.totalBytes).isLessThan(64 * 1024);
		byte[] body = scrape(renderer);
		assertThat(LineStats.of(body).samples).isEqualTo(1);
	}

	private static boolean compressedOops() {
		return Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
			.getVMOption("UseCompressedOops")
			.getValue());
	}

	private static DirectRenderer renderer(PrometheusMeterRegistry registry) {
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		return new DirectRenderer(registry, PrometheusConfig.DEFAULT, properties,
				new ReferenceRenderer(registry.getPrometheusRegistry(), properties), Long.MAX_VALUE);
	}

	/**
	 * Counters shaped like an application's, as the benchmarks' synthetic registry makes
	 * them: families of fifty, three labels, a description on every other family.
	 */
	private static List<Counter> addCounters(MeterRegistry registry, int count) {
		List<Counter> counters = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			int family = i / COUNTERS_PER_FAMILY;
			int member = i % COUNTERS_PER_FAMILY;
			Counter counter = Counter.builder(COUNTER_NAMES[family % COUNTER_NAMES.length] + "." + family)
				.description((family % 2 == 0) ? "Requests handled (family " + family + ")" : null)
				.tag("method", METHODS[member % METHODS.length])
				.tag("status", STATUSES[(member / METHODS.length) % STATUSES.length])
				.tag("uri", "/api/v1/items/" + (member / (METHODS.length * STATUSES.length)))
				.register(registry);
			counter.increment((member * 31L + family * 7L) % 10_000 + 1);
			counters.add(counter);
		}
		return counters;
	}

	private static byte[] scrape(DirectRenderer renderer) throws Exception {
		ChunkedOutput buffer = new ChunkedOutput(new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, 0),
				BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null), 0);
		renderer.render(PrometheusOutputFormat.CONTENT_TYPE_004, null, buffer);
		PooledBody body = buffer.toBody();
		try {
			return body.toByteArray();
		}
		finally {
			body.release();
		}
	}

	private static MeterIndex index(DirectRenderer renderer) throws ReflectiveOperationException {
		Field field = DirectRenderer.class.getDeclaredField("index");
		field.setAccessible(true);
		return (MeterIndex) field.get(renderer);
	}

	/**
	 * Everything the meters hold (their ids, tags, names, values): Micrometer keeps it
	 * whether or not the direct path exists, so it is not counted against the index.
	 */
	private static Set<Object> reachableFromMeters(List<?> meters) {
		Set<Object> reachable = Collections.newSetFromMap(new IdentityHashMap<>());
		HeapWalker walker = new HeapWalker();
		for (Object meter : meters) {
			walker.walk(meter, reachable, (object) -> false);
		}
		return reachable;
	}

	/**
	 * The objects the index alone keeps alive, by class.
	 */
	private static final class Retained {

		long totalBytes;

		long encodedBytes;

		long series;

		private final Map<String, long[]> classes = new HashMap<>();

		static Retained of(MeterIndex index, Set<Object> meters) {
			Retained retained = new Retained();
			VirtualMachine vm = VM.current();
			Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());
			// The registry, its naming convention and whatever the meters hold belong to
			// Micrometer, and the renderer's access to its internals (the registry's map
			// of collectors) is the renderer's; the walk does not enter them.
			new HeapWalker().walk(index, visited, (object) -> meters.contains(object) || object instanceof MeterRegistry
					|| object instanceof NamingConvention || object instanceof MicrometerInternals);
			Set<Object> labels = Collections.newSetFromMap(new IdentityHashMap<>());
			Set<Object> familyBytes = Collections.newSetFromMap(new IdentityHashMap<>());
			for (Object object : visited) {
				if (object instanceof Series each) {
					retained.series++;
					labels.add(each.labels);
				}
				else if (object instanceof Family family) {
					Collections.addAll(familyBytes, family.textMetadata, family.openMetricsMetadata, family.sampleName,
							family.bucketName, family.countName, family.sumName);
				}
			}
			for (Object object : visited) {
				long size = vm.sizeOf(object);
				retained.totalBytes += size;
				String name = object.getClass().getName();
				if (labels.contains(object)) {
					retained.encodedBytes += size;
					name = "byte[] (series labels)";
				}
				else if (familyBytes.contains(object)) {
					retained.encodedBytes += size;
					name = "byte[] (family metadata and names)";
				}
				long[] entry = retained.classes.computeIfAbsent(name, (key) -> new long[2]);
				entry[0]++;
				entry[1] += size;
			}
			return retained;
		}

		String byClass() {
			StringBuilder text = new StringBuilder("  where the bytes are (class: objects, bytes):\n");
			this.classes.entrySet()
				.stream()
				.sorted(Comparator.comparingLong((Map.Entry<String, long[]> entry) -> entry.getValue()[1]).reversed())
				.limit(12)
				.forEach((entry) -> text.append(String.format(Locale.ROOT, "    %-45s %,10d %,14d%n", entry.getKey(),
						entry.getValue()[0], entry.getValue()[1])));
			return text.toString();
		}

	}

	/**
	 * Sample lines of a text body and their average length, newline included.
	 */
	private static final class LineStats {

		long samples;

		long sampleBytes;

		static LineStats of(byte[] body) {
			LineStats stats = new LineStats();
			int start = 0;
			for (int i = 0; i < body.length; i++) {
				if (body[i] == '\n') {
					if (body[start] != '#') {
						stats.samples++;
						stats.sampleBytes += i + 1 - start;
					}
					start = i + 1;
				}
			}
			return stats;
		}

		double averageSampleLine() {
			return (double) this.sampleBytes / this.samples;
		}

	}

	/**
	 * Walks an object graph through JOL's view of the heap (field offsets and reads),
	 * which needs no access to the fields of JDK classes. Classes, class loaders and
	 * threads are never entered: they are shared by everything.
	 */
	private static final class HeapWalker {

		private static final long[] LEAF = new long[0];

		private final VirtualMachine vm = VM.current();

		private final Map<Class<?>, long[]> referenceOffsets = new HashMap<>();

		void walk(Object root, Set<Object> visited, java.util.function.Predicate<Object> stop) {
			ArrayDeque<Object> pending = new ArrayDeque<>();
			pending.push(root);
			while (!pending.isEmpty()) {
				Object object = pending.pop();
				if (object instanceof Class || object instanceof ClassLoader || object instanceof Thread
						|| stop.test(object) || !visited.add(object)) {
					continue;
				}
				Class<?> type = object.getClass();
				if (type.isArray()) {
					if (!type.getComponentType().isPrimitive()) {
						for (Object element : (Object[]) object) {
							if (element != null) {
								pending.push(element);
							}
						}
					}
					continue;
				}
				for (long offset : offsets(type)) {
					Object value = this.vm.getObject(object, offset);
					if (value != null) {
						pending.push(value);
					}
				}
			}
		}

		private long[] offsets(Class<?> type) {
			long[] offsets = this.referenceOffsets.get(type);
			if (offsets == null) {
				offsets = computeOffsets(type);
				this.referenceOffsets.put(type, offsets);
			}
			return offsets;
		}

		private long[] computeOffsets(Class<?> type) {
			List<Long> offsets = new ArrayList<>();
			for (Class<?> each = type; each != null; each = each.getSuperclass()) {
				for (Field field : each.getDeclaredFields()) {
					if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
						continue;
					}
					try {
						offsets.add(this.vm.fieldOffset(field));
					}
					catch (RuntimeException ex) {
						// Hidden classes and records hide their offsets; none of them is
						// part of the index.
						return LEAF;
					}
				}
			}
			long[] result = new long[offsets.size()];
			for (int i = 0; i < result.length; i++) {
				result[i] = offsets.get(i);
			}
			return result;
		}

	}

}
