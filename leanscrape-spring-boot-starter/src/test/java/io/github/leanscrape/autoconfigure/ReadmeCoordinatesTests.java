package io.github.leanscrape.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README gives the dependency as the build makes it: the starter's group, artifact and
 * version (the release the build's {@code revision} leads to) and the zstd-jni version
 * the build tests with, for Maven, Gradle's Kotlin DSL and Gradle's Groovy DSL; and the
 * demo command is one line.
 */
class ReadmeCoordinatesTests {

	private static final String ZSTD_GROUP = "com.github.luben";

	private static final String ZSTD_ARTIFACT = "zstd-jni";

	private static String readme;

	private static String group;

	private static String artifact;

	private static String revision;

	private static String release;

	private static String zstdVersion;

	@BeforeAll
	static void load() throws Exception {
		// The project's README and POMs, one level above the starter's module.
		Path module = Path.of(System.getProperty("basedir", "."));
		Path root = module.resolve("..");
		readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
		Document parent = parse(root.resolve("pom.xml"));
		Document starter = parse(module.resolve("pom.xml"));
		group = xpath(parent, "/project/groupId");
		artifact = xpath(starter, "/project/artifactId");
		revision = xpath(parent, "/project/properties/revision");
		release = revision.replaceFirst("-SNAPSHOT$", "");
		zstdVersion = xpath(parent, "/project/properties/zstd-jni.version");
		assertThat(List.of(group, artifact, revision, zstdVersion)).as("coordinates read from the build")
			.allMatch((value) -> !value.isBlank());
	}

	@Test
	void mavenDependencies() {
		assertThat(readme).containsPattern(mavenDependency(group, artifact, release))
			.containsPattern(mavenDependency(ZSTD_GROUP, ZSTD_ARTIFACT, zstdVersion));
	}

	@Test
	void gradleKotlinDependencies() {
		assertThat(codeBlocks("kotlin")).as("Gradle Kotlin DSL blocks")
			.anySatisfy((block) -> assertThat(block)
				.contains("implementation(\"" + group + ":" + artifact + ":" + release + "\")")
				.contains("implementation(\"" + ZSTD_GROUP + ":" + ZSTD_ARTIFACT + ":" + zstdVersion + "\")"));
	}

	@Test
	void gradleGroovyDependencies() {
		assertThat(codeBlocks("groovy")).as("Gradle Groovy DSL blocks")
			.anySatisfy((block) -> assertThat(block)
				.contains("implementation '" + group + ":" + artifact + ":" + release + "'")
				.contains("implementation '" + ZSTD_GROUP + ":" + ZSTD_ARTIFACT + ":" + zstdVersion + "'"));
	}

	@Test
	void everyVersionNamedIsTheBuildsOwn() {
		// Wherever README names a version of the starter or of zstd-jni, in any form.
		assertThat(versionsAfter(Pattern.quote(artifact))).as("versions of %s in README", artifact)
			.isNotEmpty()
			.allMatch((version) -> version.equals(release) || version.equals(revision));
		assertThat(versionsAfter(Pattern.quote(ZSTD_ARTIFACT))).as("versions of zstd-jni in README")
			.hasSizeGreaterThanOrEqualTo(3)
			.containsOnly(zstdVersion);
		if (!revision.equals(release)) {
			assertThat(readme).as("the snapshot version README names").contains("`" + revision + "`");
		}
	}

	@Test
	void demoCommandIsOneLine() {
		assertThat(codeBlocks("shell")).anySatisfy(
				(block) -> assertThat(block.lines()).anyMatch((line) -> line.startsWith("./mvnw -pl leanscrape-demo")
						&& line.contains("spring-boot:run") && !line.endsWith("\\")));
	}

	private static Pattern mavenDependency(String group, String artifact, String version) {
		return Pattern.compile("<dependency>\\s*<groupId>" + Pattern.quote(group) + "</groupId>\\s*<artifactId>"
				+ Pattern.quote(artifact) + "</artifactId>\\s*<version>" + Pattern.quote(version)
				+ "</version>\\s*</dependency>");
	}

	/**
	 * The versions that follow a name: {@code name:version} (Gradle),
	 * {@code name</artifactId> <version>version} (Maven) and {@code name` version}
	 * (prose).
	 */
	private static List<String> versionsAfter(String name) {
		Matcher matcher = Pattern
			.compile(name + "(?::|</artifactId>\\s*<version>|`\\s+)([0-9][0-9A-Za-z.\\-]*[0-9A-Za-z])")
			.matcher(readme);
		return matcher.results().map((result) -> result.group(1)).toList();
	}

	private static List<String> codeBlocks(String language) {
		Matcher matcher = Pattern.compile("^```" + language + "\\n(.*?)^```", Pattern.MULTILINE | Pattern.DOTALL)
			.matcher(readme);
		return matcher.results().map((result) -> result.group(1)).toList();
	}

	private static Document parse(Path pom) throws Exception {
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
		return factory.newDocumentBuilder().parse(pom.toFile());
	}

	private static String xpath(Document document, String expression) throws IOException {
		try {
			return XPathFactory.newInstance().newXPath().evaluate(expression, document).trim();
		}
		catch (javax.xml.xpath.XPathExpressionException ex) {
			throw new IOException(ex);
		}
	}

}
