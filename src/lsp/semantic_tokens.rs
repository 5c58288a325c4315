//! `textDocument/semanticTokens/full`: the core's tokens, delta-encoded in
//! the client's position encoding, with the legend the capabilities announce.

use super::Backend;
use super::convert::lsp_position;
use super::work::{off_thread, stop};
use crate::ide;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensParams,
    SemanticTokensResult,
};

/// Semantic token types, indexed by [`token_type`].
pub(super) const TOKEN_TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::CLASS,       // noun
    SemanticTokenType::KEYWORD,     // IS
    SemanticTokenType::OPERATOR,    // AND
    SemanticTokenType::ENUM_MEMBER, // core property
    SemanticTokenType::PROPERTY,    // custom property
    SemanticTokenType::VARIABLE,    // thing (legend key)
    SemanticTokenType::NAMESPACE,   // level id
];

/// Semantic token modifiers: bit 0 fixed word, bit 1 declaration.
pub(super) const TOKEN_MODIFIERS: &[SemanticTokenModifier] = &[
    SemanticTokenModifier::READONLY,
    SemanticTokenModifier::DECLARATION,
];

fn token_type(k: ide::TokenKind) -> u32 {
    match k {
        ide::TokenKind::Noun => 0,
        ide::TokenKind::Is => 1,
        ide::TokenKind::And => 2,
        ide::TokenKind::Property => 3,
        ide::TokenKind::CustomProperty => 4,
        ide::TokenKind::Thing => 5,
        ide::TokenKind::Level => 6,
    }
}

/// `textDocument/semanticTokens/full`, on the blocking pool (a 100,000-cell
/// row has as many tokens) and cancellable.
pub(super) async fn semantic_tokens_full(
    server: &Backend,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let Some(a) = server.analysis(&params.text_document.uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
    off_thread(move |cancel| {
        let mut data = Vec::new();
        let (mut line, mut col) = (0u32, 0u32);
        for (n, t) in ide::semantic_tokens_until(&a, cancel)?
            .into_iter()
            .enumerate()
        {
            if stop(n, cancel) {
                return None;
            }
            let s = lsp_position(&a, t.span.start as usize, enc);
            let e = lsp_position(&a, t.span.end as usize, enc);
            if e.line != s.line || e.character <= s.character {
                continue;
            }
            let delta_line = s.line - line;
            let delta_start = if delta_line == 0 {
                s.character - col
            } else {
                s.character
            };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length: e.character - s.character,
                token_type: token_type(t.kind),
                token_modifiers_bitset: u32::from(t.fixed) | (u32::from(t.declaration) << 1),
            });
            line = s.line;
            col = s.character;
        }
        Some(Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: None,
            data,
        })))
    })
    .await
}
