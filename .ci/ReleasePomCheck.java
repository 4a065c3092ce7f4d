import java.io.File;
import java.util.ArrayList;
import java.util.List;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What Maven Central requires of a released POM, checked on the POM of the release bundle
 * (.ci/release-check.sh runs it as a single-file program, no build needed):
 *
 * <pre>
 * java .ci/ReleasePomCheck.java POM GROUP_ID ARTIFACT_ID VERSION
 * </pre>
 *
 * The coordinates are those expected, the version resolved (no {@code ${revision}} left, no
 * snapshot); name, description and url are there; every license has a name and a url; a
 * developer has a name or an id; scm has a url and a connection. Each problem is printed as a
 * line starting with "POM: "; the exit code is 1 when there is any.
 */
public class ReleasePomCheck {

	public static void main(String[] args) throws Exception {
		if (args.length != 4) {
			System.err.println("usage: java ReleasePomCheck.java POM GROUP_ID ARTIFACT_ID VERSION");
			System.exit(2);
		}
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
		factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
		Element project = factory.newDocumentBuilder().parse(new File(args[0])).getDocumentElement();
		List<String> problems = new ArrayList<>();
		expect(project, "groupId", args[1], problems);
		expect(project, "artifactId", args[2], problems);
		expect(project, "version", args[3], problems);
		for (String name : List.of("name", "description", "url")) {
			require(project, name, "", problems);
		}
		Element licenses = child(project, "licenses");
		List<Element> licenseList = (licenses != null) ? children(licenses, "license") : List.of();
		if (licenseList.isEmpty()) {
			problems.add("no licenses/license");
		}
		for (Element license : licenseList) {
			require(license, "name", "license ", problems);
			require(license, "url", "license ", problems);
		}
		Element developers = child(project, "developers");
		List<Element> developerList = (developers != null) ? children(developers, "developer") : List.of();
		if (developerList.isEmpty()) {
			problems.add("no developers/developer");
		}
		for (Element developer : developerList) {
			if (text(developer, "name").isEmpty() && text(developer, "id").isEmpty()) {
				problems.add("a developer without name or id");
			}
		}
		Element scm = child(project, "scm");
		if (scm == null) {
			problems.add("no scm");
		}
		else {
			require(scm, "url", "scm ", problems);
			require(scm, "connection", "scm ", problems);
		}
		for (String problem : problems) {
			System.out.println("POM: " + problem);
		}
		System.exit(problems.isEmpty() ? 0 : 1);
	}

	private static void expect(Element parent, String name, String expected, List<String> problems) {
		String actual = text(parent, name);
		if (!actual.equals(expected)) {
			problems.add(name + " is '" + actual + "', not '" + expected + "'");
		}
	}

	private static void require(Element parent, String name, String prefix, List<String> problems) {
		if (text(parent, name).isEmpty()) {
			problems.add("no " + prefix + name);
		}
	}

	private static String text(Element parent, String name) {
		Element child = child(parent, name);
		return (child != null) ? child.getTextContent().strip() : "";
	}

	private static Element child(Element parent, String name) {
		List<Element> children = children(parent, name);
		return children.isEmpty() ? null : children.get(0);
	}

	private static List<Element> children(Element parent, String name) {
		List<Element> children = new ArrayList<>();
		for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element element && name.equals(element.getTagName())) {
				children.add(element);
			}
		}
		return children;
	}

}
