package io.github.leanscrape.demo;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import io.github.leanscrape.support.BootWiringTests;
import io.github.leanscrape.support.HttpScraper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aot.hint.FieldHint;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.SpringApplicationAotProcessor;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo application after ahead-of-time processing, as {@code spring-boot:process-aot}
 * does it ({@link SpringApplicationAotProcessor}, the class that goal runs), started with
 * {@code -Dspring.aot.enabled=true}: the starter's beans come from the generated code,
 * its scrapes stay on the direct path, and every format is byte for byte what Spring
 * Boot's own endpoint writes from the same registry in the same JVM. The generated
 * native-image configuration holds the starter's reflection hints.
 * <p>
 * A native image itself needs GraalVM, which the build does not use.
 */
@Tag(BootWiringTests.TAG)
class DemoAotTests {

	private static final List<String> ARGUMENTS = List.of("--demo.series=2000", "--demo.reference-endpoint=true",
			"--spring.main.banner-mode=off");

	private static final Duration AOT_TIMEOUT = Duration.ofMinutes(3);

	private static final String AOT_FACTORIES = "META-INF/spring/aot.factories";

	@Test
	void theProcessedDemoScrapesDirectlyAndAsSpringBootDoes(@TempDir Path directory) throws Exception {
		Path sources = directory.resolve("sources");
		Path resources = directory.resolve("resources");
		Path classes = directory.resolve("classes");
		process(directory, sources, resources, classes);
		compile(sources, classes);
		Map<String, Set<String>> reflected = reflectedFields(resources);
		RuntimeHints starters = startersHints();
		assertThat(starters.reflection().typeHints()).isNotEmpty().allSatisfy((type) -> {
			String name = type.getType().getName();
			assertThat(reflected).as("types in the native-image metadata").containsKey(name);
			assertThat(reflected.get(name)).as("fields of " + name)
				.containsAll(type.fields().map(FieldHint::getName).toList());
		});
		String processed;
		try (DemoProcess demo = DemoProcess.start(List.of("-Xmx256m", "-Dspring.aot.enabled=true"),
				List.of(classes, resources), ARGUMENTS, directory.resolve("demo-aot.log"), Duration.ofMinutes(2))) {
			assertThat(demo.output()).contains("AOT-processed");
			processed = scrapeAsSpringBoot(new HttpScraper(demo.port()));
		}
		// The same scrapes of the demo without ahead-of-time processing: the same
		// families
		// go to the reference path (those the direct path leaves to it in any JVM), and
		// no
		// scrape as a whole.
		try (DemoProcess demo = DemoProcess.start(List.of("-Xmx256m"), ARGUMENTS, directory.resolve("demo.log"),
				Duration.ofMinutes(2))) {
			assertThat(demo.output()).doesNotContain("AOT-processed");
			assertThat(processed).isEqualTo(scrapeAsSpringBoot(new HttpScraper(demo.port())));
		}
		assertThat(processed).contains("leanscrape_fallbacks_total{scope=\"scrape\"} 0.0");
	}

	/**
	 * Scrape the demo in every format and check that each is Spring Boot's, byte for
	 * byte, on the families whose values stand still; then return its report of
	 * fallbacks.
	 */
	private static String scrapeAsSpringBoot(HttpScraper http) {
		String names = demoFamilies(http);
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			String accept = format.getProducedMimeType().toString();
			HttpResponse<byte[]> whole = http.get("/actuator/prometheus", "Accept", accept);
			assertThat(whole.statusCode()).as(accept).isEqualTo(200);
			HttpResponse<byte[]> starter = http.get("/actuator/prometheus?includedNames=" + names, "Accept", accept);
			HttpResponse<byte[]> boot = http
				.get("/reference/prometheus?format=" + format.name() + "&includedNames=" + names);
			assertThat(starter.statusCode()).as(accept).isEqualTo(200);
			assertThat(boot.statusCode()).as(accept).isEqualTo(200);
			assertThat(starter.body()).as(accept).isNotEmpty().isEqualTo(boot.body());
		}
		String report = new String(http.get("/actuator/leanscrape").body(), StandardCharsets.UTF_8);
		assertThat(report).contains("\"renderer\":\"direct\"");
		String own = new String(http.get("/actuator/prometheus?includedNames=leanscrape_fallbacks").body(),
				StandardCharsets.UTF_8);
		return String.join("\n", own.lines().filter((line) -> line.startsWith("leanscrape_fallbacks")).toList());
	}

	/**
	 * Run the ahead-of-time processing of the demo in a JVM of its own, as the Maven goal
	 * does.
	 */
	private static void process(Path directory, Path sources, Path resources, Path classes)
			throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(SpringApplicationAotProcessor.class.getName());
		command.add(DemoApplication.class.getName());
		command.add(sources.toString());
		command.add(resources.toString());
		command.add(classes.toString());
		command.add("io.github.leanscrape");
		command.add("leanscrape-demo");
		command.addAll(ARGUMENTS);
		Path log = directory.resolve("process-aot.log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		process.getOutputStream().close();
		if (!process.waitFor(AOT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException("Ahead-of-time processing took longer than " + AOT_TIMEOUT);
		}
		assertThat(process.exitValue()).as(Files.readString(log)).isZero();
	}

	private static void compile(Path sources, Path classes) throws IOException {
		List<String> arguments = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
				System.getProperty("java.class.path"), "--release", "17", "-proc:none", "-nowarn"));
		try (Stream<Path> files = Files.walk(sources)) {
			files.filter((file) -> file.toString().endsWith(".java")).forEach((file) -> arguments.add(file.toString()));
		}
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		assertThat(compiler.run(null, null, null, arguments.toArray(new String[0]))).isZero();
	}

	/**
	 * Return the hints of the starter's own registrars, as {@code aot.factories} lists
	 * them.
	 */
	private static RuntimeHints startersHints() {
		RuntimeHints hints = new RuntimeHints();
		for (RuntimeHintsRegistrar registrar : SpringFactoriesLoader.forResourceLocation(AOT_FACTORIES)
			.load(RuntimeHintsRegistrar.class)) {
			if (registrar.getClass().getName().startsWith("io.github.leanscrape.")) {
				registrar.registerHints(hints, DemoAotTests.class.getClassLoader());
			}
		}
		return hints;
	}

	/**
	 * Read the fields registered for reflection in the generated native-image metadata,
	 * by type: every JSON object with a type name ({@code type}, or {@code name} in the
	 * older format) and a {@code fields} array, wherever it is.
	 */
	private static Map<String, Set<String>> reflectedFields(Path resources) throws IOException {
		Map<String, Set<String>> reflected = new HashMap<>();
		try (Stream<Path> files = Files.walk(resources.resolve("META-INF").resolve("native-image"))) {
			for (Path file : (Iterable<Path>) files.filter((each) -> each.toString().endsWith(".json"))::iterator) {
				collect(JsonMapper.shared().readTree(Files.readString(file)), reflected);
			}
		}
		return reflected;
	}

	private static void collect(JsonNode node, Map<String, Set<String>> reflected) {
		if (node.isObject()) {
			JsonNode type = node.has("type") ? node.get("type") : node.get("name");
			if (type != null && type.isString()) {
				Set<String> fields = reflected.computeIfAbsent(type.asString(), (key) -> new HashSet<>());
				for (JsonNode field : node.path("fields")) {
					fields.add(field.path("name").asString());
				}
			}
		}
		for (JsonNode child : node) {
			collect(child, reflected);
		}
	}

	/**
	 * Return the families of the demo's own meters whose values stand still between two
	 * scrapes: not those of the JVM and of the starter itself, nor the maximums and
	 * quantiles of timers and summaries, which move when their time window turns.
	 */
	private static String demoFamilies(HttpScraper http) {
		String text = new String(http.get("/actuator/prometheus", "Accept", "text/plain").body(),
				StandardCharsets.UTF_8);
		Set<String> names = new LinkedHashSet<>();
		for (String line : text.lines().toList()) {
			if (line.startsWith("# TYPE demo_") && !line.endsWith(" summary")) {
				String name = line.substring("# TYPE ".length(), line.lastIndexOf(' '));
				if (name.endsWith("_max")) {
					continue;
				}
				names.add(name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name);
			}
		}
		assertThat(names).hasSizeGreaterThan(10);
		return String.join(",", names);
	}

}
