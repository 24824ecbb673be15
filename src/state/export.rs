//! The export slice (a panel's): what the copy / export menu has asked the
//! worker to make and not yet received. No core slice reads it.

/// An export under way.
#[derive(Debug, Clone, Default)]
pub struct ExportState {
    /// The file name the export asked for last downloads as.
    pub save_as: String,
}

/// What happens in the copy / export menu.
#[derive(Debug, Clone)]
pub enum ExportAction {
    /// An export was asked for: it downloads under this name.
    SaveAs(String),
}

impl ExportState {
    /// The slice after `action`, or `None` if nothing changed.
    pub fn apply(&self, action: ExportAction) -> Option<ExportState> {
        let ExportAction::SaveAs(name) = action;
        (name != self.save_as).then_some(ExportState { save_as: name })
    }
}
