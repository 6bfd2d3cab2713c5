package dev.snowid.infra;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * CloudWatch on moto through CloudWatch's query protocol (form parameters in, XML out). The
 * AWS SDK for Java's CloudWatch client speaks a newer protocol that moto 5.2.1 does not route
 * (it answers 404), so the deploy test uses the query protocol, which moto and CloudWatch both
 * accept. Only what the test needs: PutMetricAlarm, DescribeAlarms, GetDashboard.
 */
final class MotoCloudWatch {

    private final URI endpoint;
    private final String region;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    MotoCloudWatch(URI endpoint, String region) {
        this.endpoint = endpoint;
        this.region = region;
    }

    /** PutMetricAlarm with CloudFormation's properties of an AWS::CloudWatch::Alarm: they are the API's parameters. */
    void putMetricAlarm(String name, Map<String, Object> properties) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("AlarmName", name);
        flatten("", properties, parameters);
        call("PutMetricAlarm", parameters);
    }

    /** The alarms whose names start with {@code prefix}, as DescribeAlarms returns them. */
    List<Node> alarms(String prefix) {
        Document answer = call("DescribeAlarms", Map.of("AlarmNamePrefix", prefix));
        NodeList alarms = (NodeList) xpath(answer, "//*[local-name()='MetricAlarms']/*[local-name()='member']", XPathConstants.NODESET);
        List<Node> found = new ArrayList<>();
        for (int i = 0; i < alarms.getLength(); i++) {
            found.add(alarms.item(i));
        }
        return found;
    }

    String dashboardBody(String name) {
        return (String) xpath(call("GetDashboard", Map.of("DashboardName", name)), "//*[local-name()='DashboardBody']",
                XPathConstants.STRING);
    }

    /** The texts an XPath (local names, e.g. {@code .//*[local-name()='Namespace']}) selects under {@code node}. */
    static List<String> texts(Node node, String path) {
        NodeList selected = (NodeList) xpath(node, path, XPathConstants.NODESET);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < selected.getLength(); i++) {
            texts.add(selected.item(i).getTextContent().strip());
        }
        return texts;
    }

    /** Query-protocol names: nested structures joined with dots, list items as Name.member.N (from 1). */
    private static void flatten(String prefix, Object value, Map<String, String> into) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, item) -> flatten(prefix.isEmpty() ? (String) key : prefix + "." + key, item, into));
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                flatten(prefix + ".member." + (i + 1), list.get(i), into);
            }
        } else {
            into.put(prefix, String.valueOf(value));
        }
    }

    private Document call(String action, Map<String, String> parameters) {
        StringBuilder form = new StringBuilder("Action=" + action + "&Version=2010-08-01");
        parameters.forEach((key, value) -> form.append('&').append(encode(key)).append('=').append(encode(value)));
        // moto routes by the service named in the credential scope; it does not check the signature.
        HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/"))
                .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=moto/20260101/" + region
                        + "/monitoring/aws4_request, SignedHeaders=host, Signature=0")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(form.toString()))
                .build();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            String body = new String(response.body(), StandardCharsets.UTF_8);
            if (response.statusCode() != 200) {
                throw new AssertionError("CloudWatch " + action + " answered " + response.statusCode() + ": " + body);
            }
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            return factory.newDocumentBuilder().parse(new ByteArrayInputStream(response.body()));
        } catch (IOException | javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
            throw new AssertionError("CloudWatch " + action + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted during CloudWatch " + action, e);
        }
    }

    private static Object xpath(Object from, String path, javax.xml.namespace.QName type) {
        try {
            return XPathFactory.newInstance().newXPath().evaluate(path, from, type);
        } catch (javax.xml.xpath.XPathExpressionException e) {
            throw new IllegalArgumentException("bad XPath " + path, e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
