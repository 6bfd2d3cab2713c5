package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.constructor.ConstructorException;

class CloudFormationYamlTest {

    @Test
    void shortIntrinsicTagsBecomeTheLongForm() {
        Map<String, Object> parsed = CloudFormationYaml.parse("""
                ref: !Ref Table
                att: !GetAtt Table.Arn
                attList: !GetAtt [Table, StreamArn]
                sub: !Sub "arn:${AWS::Partition}:x"
                subList: !Sub ["${A}-b", {A: !Ref B}]
                if: !If [IsProd, 1, !Ref AWS::NoValue]
                eq: !Equals [!Ref Env, prod]
                not: !Not [!Equals [a, b]]
                contains: !Contains [[a, b], !Ref X]
                cond: !Condition IsProd
                join: !Join [",", [a, b]]
                """);
        assertEquals(Map.of("Ref", "Table"), parsed.get("ref"));
        assertEquals(Map.of("Fn::GetAtt", List.of("Table", "Arn")), parsed.get("att"));
        assertEquals(Map.of("Fn::GetAtt", List.of("Table", "StreamArn")), parsed.get("attList"));
        assertEquals(Map.of("Fn::Sub", "arn:${AWS::Partition}:x"), parsed.get("sub"));
        assertEquals(Map.of("Fn::Sub", List.of("${A}-b", Map.of("A", Map.of("Ref", "B")))), parsed.get("subList"));
        assertEquals(Map.of("Fn::If", List.of("IsProd", 1, Map.of("Ref", "AWS::NoValue"))), parsed.get("if"));
        assertEquals(Map.of("Fn::Equals", List.of(Map.of("Ref", "Env"), "prod")), parsed.get("eq"));
        assertEquals(Map.of("Fn::Not", List.of(Map.of("Fn::Equals", List.of("a", "b")))), parsed.get("not"));
        assertEquals(Map.of("Fn::Contains", List.of(List.of("a", "b"), Map.of("Ref", "X"))), parsed.get("contains"));
        assertEquals(Map.of("Condition", "IsProd"), parsed.get("cond"));
        assertEquals(Map.of("Fn::Join", List.of(",", List.of("a", "b"))), parsed.get("join"));
    }

    @Test
    void anUnknownTagFailsTheParse() {
        assertThrows(ConstructorException.class, () -> CloudFormationYaml.parse("x: !Reff Table\n"));
    }

    @Test
    void getAttWithoutAnAttributeFailsTheParse() {
        Exception e = assertThrows(Exception.class, () -> CloudFormationYaml.parse("x: !GetAtt Table\n"));
        assertTrue(String.valueOf(e.getMessage()).contains("Resource.Attribute")
                || String.valueOf(e.getCause()).contains("Resource.Attribute"), e.toString());
    }

    @Test
    void theTemplateParses() {
        Template template = Template.load();
        assertEquals("AWS::Serverless-2016-10-31", template.root().get("Transform"));
        assertEquals(Map.of("Fn::GetAtt", List.of("LeaseTable", "Arn")),
                Template.at(template.properties("FunctionRole"), "Policies").map(Template::list)
                        .map(policies -> Template.at(policies.get(0), "PolicyDocument", "Statement").orElseThrow())
                        .map(statements -> Template.map(Template.list(statements).get(0)).get("Resource"))
                        .orElseThrow());
    }
}
